"""The projection runner: catch up on the log and follow it, in one loop.

Each step reads up to ``batch_size`` events after the watermark (position order), then in ONE write
transaction advances the watermark by compare-and-swap, folds the batch and writes the rows, so rows
and watermark commit together or not at all.  A crash at any point leaves the previous consistent
state; re-delivery of events at or below the watermark cannot happen because reads start after it.

Following: on SQLite by polling every ``poll_interval`` seconds; on PostgreSQL by ``LISTEN
job_events`` (the store notifies on every commit) with the same interval as a polling fallback.
``stop()`` (or setting the ``stop`` event) ends the loop after the current batch.  Memory is bounded
by the batch size whatever the length of the log.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.database import Database
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.engine import FoldEngine, frozen_heap, paused_gc, read_log
from jobctrl.projections.healing import heal
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import Projection
from jobctrl.projections.recoveries import advance_native_proofs
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.waiting import Waiter, waiter_for
from jobctrl.projections.watermarks import advance_watermark, ensure_watermark, read_watermark

log = logging.getLogger(__name__)


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
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        self.db = db
        self.registry = registry
        self.projections = tuple(projections)
        self.watermark = watermark
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        # A new canonical key of a verified native execution advances its proof in the same
        # transaction (ADR 0132); rebuilds never call it (their folds run on shadow tables).
        self.engine = FoldEngine(registry, self.projections, on_digest_change=advance_native_proofs)
        self.targets = {t.name: t.table for p in self.projections for t in p.tables}
        self.stats = RunnerStats()
        self._stop = threading.Event()
        self._prepared = False
        #: set while ``run`` is caught up and waiting for new rows (a test awaits it instead of sleeping)
        self.waiting = threading.Event()

    # -- lifecycle --------------------------------------------------------------------------------
    def prepare(self) -> list[str]:
        """Migrate the read-model schema, make sure the watermark exists, heal lost rows.

        Returns the names of projections that self-healing rebuilt."""
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
        """Fold one batch; returns how many log rows it consumed (0 when caught up)."""
        if not self._prepared:
            self.prepare()
        # One connection and one transaction per batch: read after the watermark, advance it by
        # compare-and-swap, fold, commit.  The heap is frozen meanwhile, so a full collection walks
        # only this batch's objects, not the whole process (ADR 0232), and collections are paused
        # until the batch is freed (ADR 0290).
        with frozen_heap(), paused_gc(), self.db.write() as conn:
            start = read_watermark(conn, self.watermark)
            batch = read_log(conn, start, self.batch_size)
            if not batch:
                return 0
            if not advance_watermark(conn, self.watermark, start, batch[-1][0]):
                # Someone else (another runner, a rebuild swap) moved it: drop this batch, re-read.
                self.stats.conflicts += 1
                return 0
            skipped = self.engine.fold(conn, batch, self.targets, watermark=self.watermark)
        for s in skipped:
            log.warning(
                "projection runner skipped event at position %d (%s): %s", s.position, s.event_type, s.reason
            )
        self.stats.batches += 1
        self.stats.events += len(batch)
        self.stats.skipped += len(skipped)
        return len(batch)

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
