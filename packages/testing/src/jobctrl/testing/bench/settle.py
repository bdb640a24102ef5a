"""Between two suites: wait until the previous suite's processes are gone (ADR 0446).

Each suite runs in a child process (ADR 0425), and some suites start processes of their own (the
Temporal dev server, Chromium and its Playwright driver).  A descendant that outlives the child is
orphaned; Linux re-parents it to the nearest *child subreaper*, so the bench parent declares itself
one (``become_subreaper``) and, after each child exits, reaps what ended and waits, up to a bound,
until no descendant is alive (``wait_for_descendants``) before it starts the next suite.  The next
suite's figures are then not measured beside a browser or a dev server still shutting down.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import time
from dataclasses import dataclass
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")
#: how long the parent waits for the previous suite's processes at most
WAIT_BOUND_S = 30.0


def become_subreaper() -> bool:
    """Make orphaned descendants children of this process (Linux only; False where unsupported)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def live_descendants(root: int | None = None) -> list[tuple[int, str]]:
    """(pid, command name) of every descendant of ``root`` (default: this process) not yet exited
    (a zombie, exited but not reaped, does not count)."""
    root = os.getpid() if root is None else root
    parents: dict[int, list[tuple[int, str, str]]] = {}
    if not _PROC.is_dir():
        return []
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        state, ppid = text[text.rindex(")") + 2 :].split()[:2]
        parents.setdefault(int(ppid), []).append((int(entry.name), name, state))
    out: list[tuple[int, str]] = []
    todo = [root]
    while todo:
        for pid, name, state in parents.get(todo.pop(), ()):
            if state != "Z":
                out.append((pid, name))
            todo.append(pid)
    return out


def _reap() -> None:
    """Collect the exit status of every child that has ended (orphans re-parented here)."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


@dataclass(frozen=True)
class Settled:
    waited_s: float
    left: list[tuple[int, str]]  # still alive when the bound ran out


def wait_for_descendants(
    bound_s: float = WAIT_BOUND_S, poll_s: float = 0.05, ignore: frozenset[int] = frozenset()
) -> Settled:
    """Reap and wait until no descendant of this process is alive, for at most ``bound_s``; the
    processes in ``ignore`` (alive before the suite started) are neither waited for nor reported."""
    started = time.perf_counter()
    while True:
        _reap()
        alive = [(pid, name) for pid, name in live_descendants() if pid not in ignore]
        waited = time.perf_counter() - started
        if not alive or waited >= bound_s:
            _reap()  # one that exited since the last reap is a zombie until it is collected
            return Settled(waited, alive)
        with contextlib.suppress(InterruptedError):
            time.sleep(poll_s)
