"""The cyclic GC's permanent generation, shared by the whole process (ADR 0426).

``gc.freeze()`` moves every object the collector tracks into a permanent generation that no collection
walks; ``gc.unfreeze()`` moves *all* of it back, whoever froze it.  Two uses share it here:

* ``freeze_startup()``: a long-running process (``jobctrl worker``, the embedded local runtime of
  ``jobctrl demo`` and ``jobctrl run``) calls it once its imports are done and its Temporal worker is
  built.  One full collection first (garbage is not frozen), then everything alive is frozen for the
  rest of the process: its full collections walk only what it made since, not the ~320,000 objects
  the imports leave.  Bounded: it happens once, and it holds only what existed then.
* ``frozen_heap()``: a block (a rebuild's fold, a runner step; ADR 0232) that wants every object that
  exists now out of the collections while it runs.  Only the outermost block of the process freezes,
  and the last one to end thaws, so overlapping blocks never thaw each other.  In a process with a
  start-up freeze a block freezes nothing: it could never thaw what it froze without thawing the
  start-up heap too, and leaving its objects frozen would grow the permanent generation with every
  block (whatever was frozen while alive and later became cyclic garbage would never be freed).
  The start-up freeze is never thawed.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["decline_startup_freeze", "freeze_startup", "frozen_heap", "startup_frozen"]


class _Freezes:
    """The process's one state of the permanent generation (a module-level instance, under its lock)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0  # frozen_heap blocks running now, in every thread
        self.held = False  # the freeze the outermost block made, thawed when the last block ends
        self.startup = False  # the process froze its start-up heap
        self.asked = False  # the start-up freeze, asked for while a block held its freeze
        self.declined = False  # the process's host manages its heap: no start-up freeze here

    def freeze_startup(self) -> None:
        gc.collect()
        gc.freeze()
        self.startup, self.asked = True, False


_state = _Freezes()


def freeze_startup() -> int:
    """Freeze everything alive now (after one full collection), for the rest of the process; once.

    Returns how many objects are frozen (0 when a ``frozen_heap`` block holds its freeze: then the
    start-up freeze is made as the last block ends, on everything alive at that point)."""
    with _state.lock:
        if _state.declined:
            return 0
        if not _state.startup:
            if _state.held:
                _state.asked = True
                return 0
            _state.freeze_startup()
        return gc.get_freeze_count()


def decline_startup_freeze() -> None:
    """The process's host manages its heap (a test session freezes it around each test, ADR 0427):
    ``freeze_startup`` does nothing from now on, e.g. when a test runs ``jobctrl run`` in-process."""
    with _state.lock:
        _state.declined = True


def startup_frozen() -> bool:
    return _state.startup


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Leave every object that exists now out of the cyclic GC's collections until the block ends.

    A rebuild's row cache holds hundreds of thousands of rows in a few dicts; each full collection
    walked every key and value of them (a third of a rebuild's time, ADR 0232).  Objects created
    inside the block are collected as usual; what was frozen goes back to the oldest generation when
    the last running block ends.  A freeze this did not make (the start-up freeze, an enclosing or
    overlapping block's) is left in place."""
    with _state.lock:
        _state.depth += 1
        if not _state.held and not _state.startup:
            gc.freeze()
            _state.held = True
    try:
        yield
    finally:
        with _state.lock:
            _state.depth -= 1
            if _state.depth == 0 and _state.held:
                gc.unfreeze()
                _state.held = False
                if _state.asked:
                    _state.freeze_startup()
