"""The projection runner: catch up on the log and follow it, in one loop.

Each step is ONE write transaction: it reads up to ``batch_size`` events after the watermark
(position order), advances the watermark by compare-and-swap and folds the batch in memory, and
while a full batch came back (catching up) reads and folds the next, up to ``commit_events`` events;
then it writes the rows the batches changed, each once, so rows and watermark commit together or not
at all (ADR 0350).  A crash at any point leaves the previous consistent state; re-delivery of events
at or below the watermark cannot happen because reads start after it.

Following: on SQLite by polling every ``poll_interval`` seconds; on PostgreSQL by ``LISTEN
job_events`` (the store notifies on every commit) with the same interval as a polling fallback.
``stop()`` (or setting the ``stop`` event) ends the loop after the current transaction.  Memory is
bounded by ``commit_events`` (and the row cache's capacity) whatever the length of the log.

While catching up, the next transaction starts from the rows the last one committed, if the
watermark is still where it left it and no rebuild swap replaced rows since (ADR 0400); a catch-up
that starts on empty tables looks no row up at all, like a rebuild.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.database import Database
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.engine import FoldEngine, Skipped, read_log
from jobctrl.projections.healing import heal
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import Projection
from jobctrl.projections.recoveries import advance_native_proofs
from jobctrl.projections.rowcache import RowCache, frozen_heap, paused_gc
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.waiting import Waiter, waiter_for
from jobctrl.projections.watermarks import advance_watermark, ensure_watermark, read_replaced, read_watermark

log = logging.getLogger(__name__)

#: events one catch-up transaction folds at most, by default (ADR 0350)
COMMIT_EVENTS = 50_000


@dataclass
class RunnerStats:
    batches: int = 0
    events: int = 0
    skipped: int = 0
    conflicts: int = 0


class ProjectionRunner:
    def __init__(
        self,
        db: Database,
        registry: EventRegistry,
        projections: Sequence[Projection] = OPERATIONS,
        *,
        watermark: str = OPERATIONS_WATERMARK,
        batch_size: int = 2000,
        poll_interval: float = 0.5,
        commit_events: int | None = None,
        cache_capacity: int = 300_000,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        if commit_events is not None and commit_events < 1:
            raise ValueError("commit_events must be positive")
        self.db = db
        self.registry = registry
        self.projections = tuple(projections)
        self.watermark = watermark
        self.batch_size = batch_size
        #: events folded in one transaction at most while catching up (ADR 0350)
        self.commit_events = commit_events if commit_events is not None else max(batch_size, COMMIT_EVENTS)
        self.cache_capacity = cache_capacity
        self.poll_interval = poll_interval
        # A new canonical key of a verified native execution advances its proof in the same
        # transaction (ADR 0132); rebuilds never call it (their folds run on shadow tables).
        self.engine = FoldEngine(registry, self.projections, on_digest_change=advance_native_proofs)
        self.targets = {t.name: t.table for p in self.projections for t in p.tables}
        self.stats = RunnerStats()
        self._stop = threading.Event()
        self._prepared = False
        # The rows of the last catch-up transaction, with the watermark position and the swap count
        # (``read_replaced``) they were committed under: the next catch-up transaction starts from
        # them instead of loading them again, if both are unchanged (ADR 0400).
        self._kept: tuple[RowCache, int, int] | None = None
        #: set while ``run`` is caught up and waiting for new rows (a test awaits it instead of sleeping)
        self.waiting = threading.Event()

    # -- lifecycle --------------------------------------------------------------------------------
    def prepare(self) -> list[str]:
        """Migrate the read-model schema, make sure the watermark exists, heal lost rows.

        Returns the names of projections that self-healing rebuilt."""
        self._kept = None
        migrate(self.db)
        with self.db.write() as conn:
            ensure_watermark(conn, self.watermark)
        healed = heal(self.db, self.registry, self.projections, watermark=self.watermark)
        self._prepared = True
        return healed

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    # -- folding ----------------------------------------------------------------------------------
    def step(self) -> int:
        """Fold one transaction's batches; returns how many log rows it consumed (0 when caught up)."""
        if not self._prepared:
            self.prepare()
        # One connection and one transaction: read after the watermark, advance it by
        # compare-and-swap, fold, commit.  The heap is frozen meanwhile, so a full collection walks
        # only this transaction's objects, not the whole process (ADR 0232; in a process that froze
        # its start-up heap, only that stays frozen: ADR 0426), and collections are paused until it
        # is freed (ADR 0290).
        # While catching up, one transaction folds up to ``commit_events`` events in batches of
        # ``batch_size``: the rows the batches touch stay in memory between them and are written
        # once, with the watermark, when the transaction ends (ADR 0350).
        # Rows kept from the previous catch-up transaction are taken out first: a transaction that
        # fails or conflicts leaves none kept (its rows never committed).
        kept, self._kept = self._kept, None
        batches, events = 0, 0
        skipped: list[Skipped] = []
        with frozen_heap(), paused_gc(), self.db.write() as conn:
            position = read_watermark(conn, self.watermark)
            cache: RowCache | None = None
            replaced = 0
            while events < self.commit_events:
                batch = read_log(conn, position, min(self.batch_size, self.commit_events - events))
                if not batch:
                    break
                if not advance_watermark(conn, self.watermark, position, batch[-1][0]):
                    # Someone else (another runner, a rebuild swap) moved it: drop this batch, re-read.
                    if events:  # the first move took the row lock: a later one cannot fail
                        raise RuntimeError(f"watermark {self.watermark!r} moved under its row lock")
                    self.stats.conflicts += 1
                    return 0
                if cache is None:
                    # Under the watermark's lock now: nobody else replaces rows until this commits.
                    replaced = read_replaced(conn, self.watermark)
                    cache = self._cache(conn, kept, position, replaced, full=len(batch) == self.batch_size)
                skipped += self.engine.fold(conn, batch, self.targets, watermark=self.watermark, cache=cache)
                position = batch[-1][0]
                batches += 1
                events += len(batch)
                if len(batch) < self.batch_size:
                    break  # caught up: commit what there is now
            if cache is None:
                return 0
            self.engine.commit(conn, cache, self.targets)
        if events == self.commit_events:
            # Still catching up: the next transaction starts from these rows (ADR 0400).  A caught-up
            # runner keeps nothing between its (small) live transactions.
            cache.committed()
            self._kept = (cache, position, replaced)
        for s in skipped:
            log.warning(
                "projection runner skipped event at position %d (%s): %s", s.position, s.event_type, s.reason
            )
        self.stats.batches += batches
        self.stats.events += events
        self.stats.skipped += len(skipped)
        return events

    def _cache(
        self,
        conn: sa.Connection,
        kept: tuple[RowCache, int, int] | None,
        position: int,
        replaced: int,
        *,
        full: bool,
    ) -> RowCache:
        """This transaction's row cache: the rows kept from the previous catch-up transaction if no
        one else moved the watermark or replaced rows since it committed them, else a new cache,
        complete (no key to look up) if every table is empty (ADR 0400).  The caller holds the
        watermark's lock, so neither can change before this transaction ends."""
        if kept is not None and kept[1:] == (position, replaced):
            return kept[0]
        cache = RowCache(capacity=self.cache_capacity, complete=False)
        # Only while catching up (a full first batch): a live step folds few rows, and the checks
        # would cost it more than its loads.
        if full:
            cache.complete = cache.fresh = not any(
                conn.execute(sa.select(sa.literal(1)).select_from(table).limit(1)).first() is not None
                for table in self.targets.values()
            )
        return cache

    def catch_up(self) -> int:
        total = 0
        while not self._stop.is_set():
            n = self.step()
            if n == 0:
                break
            total += n
        return total

    def run(self, stop: threading.Event | None = None) -> None:
        """Catch up, then follow the log until ``stop()`` is called (or ``stop`` is set)."""
        if stop is not None:
            self._stop = stop
        if not self._prepared:
            self.prepare()
        waiter: Waiter = waiter_for(self.db)
        try:
            while not self._stop.is_set():
                if self.catch_up() == 0:
                    self.waiting.set()
                    waiter.wait(self.poll_interval, self._stop)
                    self.waiting.clear()
        finally:
            waiter.close()

    def __enter__(self) -> ProjectionRunner:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
