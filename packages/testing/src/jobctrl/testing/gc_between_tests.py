"""The test process runs the cyclic GC's full collections between tests, not inside them (ADR 0410).

The suite is one process of two thousand tests, and what stays alive from test to test (imported
modules, Temporal's sandbox caches, the shared dev server's clients) makes a full collection walk
millions of objects.  Left to the default thresholds, such a collection starts in whatever thread
happens to allocate: a workflow thread, in the middle of an activation.  One that lasts past two
seconds trips the Temporal SDK's deadlock detector, whose interrupt then lands inside a weakref
callback of the collection and surfaces as an unraisable exception that fails an unrelated test
(CI, stop 24).  A worker process of the product does not carry a test session's heap.

So, loaded with ``-p jobctrl.testing.gc_between_tests``:

* the oldest generation is never collected automatically while the session runs (its threshold is
  set out of reach; the young generations keep their thresholds, so short-lived cycles are still
  freed as tests run);
* after every ``FULL_EVERY`` tests, and before the session ends, one full collection runs between
  two tests, where no test is running;
* every collection is timed, and the summary prints the full collections between tests and the
  longest pause of any collection inside a test, with the test it paused;
* each test runs under ``jobctrl.kernel.heap.frozen_heap`` (ADR 0427): what was alive when it began
  (the session's heap) is frozen until it ends, so a collection inside it walks only what the test
  made.  Blocks inside the test (a runner step, a rebuild) leave that freeze alone (ADR 0426), and
  a command run in-process never makes its start-up freeze here.

A test that needs a collection at a point of its own (to surface a leaked connection in the test
that leaked it) still calls ``gc.collect()`` itself, and it walks only the test's own objects.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from jobctrl.kernel.heap import decline_startup_freeze, frozen_heap

#: full collections run after this many tests
FULL_EVERY = 50
#: the oldest generation's threshold while the session runs: one collection of it every 10**9 young
#: ones, i.e. never
OUT_OF_REACH = 10**9


@dataclass
class Pauses:
    """What the collections cost, and where."""

    test: str = ""  # the running test's node id, "" between tests
    between: int = 0
    between_s: float = 0.0
    longest_between_s: float = 0.0
    longest_inside_s: float = 0.0
    longest_inside_at: str = ""
    inside_s: float = 0.0  # every collection inside a test, in all
    _starts: dict[int, float] = field(default_factory=dict)

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        thread = threading.get_ident()
        if phase == "start":
            self._starts[thread] = time.perf_counter()
            return
        started = self._starts.pop(thread, None)
        if started is None or not self.test:
            return
        took = time.perf_counter() - started
        self.inside_s += took
        if took > self.longest_inside_s:
            self.longest_inside_s, self.longest_inside_at = took, self.test

    def collect_between(self) -> None:
        started = time.perf_counter()
        gc.collect()
        took = time.perf_counter() - started
        self.between += 1
        self.between_s += took
        self.longest_between_s = max(self.longest_between_s, took)


_KEY = pytest.StashKey[tuple[Pauses, tuple[int, int, int]]]()
_RAN = pytest.StashKey[int]()


def pytest_configure(config: pytest.Config) -> None:
    pauses = Pauses()
    # A command run in this process (`jobctrl run` through CliRunner) must not freeze the session's
    # heap for good: the session freezes it around each test instead (ADR 0427).
    decline_startup_freeze()
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], OUT_OF_REACH)
    gc.callbacks.append(pauses.on_gc)
    config.stash[_KEY] = (pauses, before)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _KEY not in config.stash:
        return
    pauses, before = config.stash[_KEY]
    if pauses.on_gc in gc.callbacks:
        gc.callbacks.remove(pauses.on_gc)
    gc.set_threshold(*before)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    pauses, _ = item.config.stash[_KEY]
    pauses.test = item.nodeid
    try:
        with frozen_heap():  # the session's heap is out of the test's own collections (ADR 0427)
            return (yield)
    finally:
        pauses.test = ""
        ran = item.config.stash.setdefault(_RAN, 0) + 1
        item.config.stash[_RAN] = ran
        if ran % FULL_EVERY == 0 or nextitem is None:
            pauses.collect_between()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if _KEY not in config.stash:
        return
    pauses, _ = config.stash[_KEY]
    terminalreporter.write_line(
        f"cyclic GC: {pauses.between} full collections between tests ({pauses.between_s:.1f} s, "
        f"longest {pauses.longest_between_s * 1000:.0f} ms); "
        f"inside tests {pauses.inside_s:.1f} s in all, the longest {pauses.longest_inside_s * 1000:.0f} ms"
        + (f" ({pauses.longest_inside_at})" if pauses.longest_inside_at else "")
    )
