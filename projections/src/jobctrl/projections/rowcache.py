"""What one writer keeps in memory across the batches it folds (ADR 0232, 0290, 0350).

``RowCache``: the rows a rebuild's shadows (or one runner transaction) hold, their pending writes,
row-count deltas and key digest changes.  ``frozen_heap`` (``jobctrl.kernel.heap``, ADR 0426) and
``paused_gc``: the cyclic GC kept out of a fold's way.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from jobctrl.kernel.heap import frozen_heap

__all__ = ["DigestChange", "RowCache", "frozen_heap", "paused_gc"]

#: (digest table name, execution key, term, +1 for a created row / -1 for a deleted one)
DigestChange = tuple[str, tuple[Any, ...], str, int]


@dataclass
class RowCache:
    """The rows of a rebuild's shadow tables (or of one runner transaction's reads), kept across
    batches by their single writer.

    While ``complete`` (nothing was ever evicted, and the tables started empty) a key missing here is
    absent from the table, so no query is needed; otherwise missing keys are loaded.  Changed rows
    wait in ``dirty`` and are written when the cache is flushed, so a row touched by many events is
    written once.  Past ``capacity`` rows the engine flushes and clears it, which keeps memory
    bounded however long the log.  ``created`` (rows created minus deleted, per table) and
    ``changes`` (key digest changes, kept only for an engine with a digest hook) wait for
    ``FoldEngine.commit`` (ADR 0350); ``origins`` wait for the next flush."""

    capacity: int = 300_000
    rows: dict[str, dict[Hashable, Any]] = field(default_factory=lambda: defaultdict(dict))
    dirty: dict[str, dict[Hashable, Any]] = field(default_factory=lambda: defaultdict(dict))
    complete: bool = True
    created: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    changes: list[DigestChange] = field(default_factory=list)
    #: per table with group counts: each changed key's row before this transaction's first change
    #: (``None``: no row), settled into the counts when the cache is flushed (ADR 0370)
    origins: dict[str, dict[Hashable, Any]] = field(default_factory=lambda: defaultdict(dict))
    #: no row of the cache's tables is written yet (a rebuild's new tables, a catch-up from empty
    #: ones): the first flush writes every row the cache holds, so the fold tracks no changes until
    #: then (ADR 0415); only ever set together with ``complete``
    fresh: bool = False

    def committed(self) -> None:
        """Forget what the transaction just committed (row-count deltas, key digest changes), keeping
        the rows: they are now the tables' rows, for the next transaction of the same writer while
        nobody else wrote them (ADR 0400)."""
        self.created.clear()
        self.changes.clear()

    def size(self) -> int:
        return sum(len(r) for r in self.rows.values())

    def prepare(self, names: Iterable[str]) -> None:
        """Create the per-table dicts up front (they are then emptied in place, never replaced), so
        a ``frozen_heap`` entered after this keeps the cyclic GC from traversing them (ADR 0232)."""
        for name in names:
            self.rows[name]
            self.dirty[name]

    def clear_rows(self) -> None:
        for rows in self.rows.values():
            rows.clear()

    def clear_dirty(self) -> None:
        for rows in self.dirty.values():
            rows.clear()


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection while one batch is read and folded (ADR 0290).

    A batch allocates tens of thousands of short-lived tracked objects (decoded events, their
    ``EventInfo``, log rows) that reference counting frees when the batch ends; the generational
    collections they triggered meanwhile re-walked the live batch again and again (a quarter of a
    rebuild's time).  Collection resumes when the block ends, on failure too; if the GC was already
    off (an enclosing block, or the embedding application's choice) it stays off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
