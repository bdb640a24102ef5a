"""Projection throughput on the embedded SQLite default.

A realistic generated log (jobs through every stage with retries, blocks and exhaustion; Discover
runs with retried pipeline steps, duplicate and late terminals, re-runs and recoveries) of
``JOBCTRL_BENCH_EVENTS`` events (default 200,000; the aim is 1,000,000 in ≤ 15 s) is folded, in
interleaved rounds (ADR 0230; ``JOBCTRL_BENCH_ROUNDS``, default 5):

* ``read.decode_per_s``: baseline, the store's ordered read of every row plus its msgspec decode;
* ``rebuild.events_per_s``: ``rebuild`` of every operations projection (shadow tables + swap);
* ``follow.events_per_s``: the runner's incremental path (CAS watermark, per-batch fold) from zero
  (the read models are emptied before the clock starts);
* ``rebuild.ratio_vs_read`` and ``follow.ratio_vs_rebuild``: medians of the per-round ratios.

Each subject runs once unmeasured first (a fresh process reads faster than one that has rebuilt:
the first read was up to 40 % cheaper in CPU than the later ones), the garbage of one subject is
collected before the next starts, and the suite runs ``JOBCTRL_BENCH_ROUNDS`` (default 5) rounds.
Beside the wall figures, ``*.cpu_ratio_*`` give the same ratios in process CPU time, which the other
work on a shared host moves far less (ADR 0401).  ``<subject>.gc_full_per_sample`` and
``<subject>.gc_full_cpu_ms_per_sample`` say how many full cyclic collections (generation 2) fell inside
each subject's measured samples, and their CPU, on average (ADR 0435): the two sides of a ratio need
not pay them alike.
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.migrate import migrate
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.sqlutil import reset_row_counts
from jobctrl.projections.watermarks import set_watermark
from jobctrl.testing.bench.method import Samples, Subject, interleave, rounds
from jobctrl.testing.synthetic import generate, write_log

DEFAULT_EVENTS = 200_000
EVENTS_PER_JOB = 20  # roughly, for the generator's mix
BATCH = 5000


#: one sample: events folded, wall seconds, process CPU seconds
Sample = tuple[int, float, float]


def _read_decode(db: Database, store: EventStore, reg: EventRegistry) -> Sample:
    started, cpu = time.perf_counter(), time.process_time()
    position, decoded = 0, 0
    with db.read() as conn:
        while True:
            batch = store.read_all_in(conn, after=position, limit=BATCH)
            if not batch:
                break
            for stored in batch:
                reg.decode(stored)
            decoded += len(batch)
            position = batch[-1].position
    return decoded, time.perf_counter() - started, time.process_time() - cpu


def _rebuild(db: Database, reg: EventRegistry, written: int) -> Sample:
    started, cpu = time.perf_counter(), time.process_time()
    rebuild(db, reg, batch_size=BATCH)
    return written, time.perf_counter() - started, time.process_time() - cpu


def _follow(db: Database, reg: EventRegistry) -> Sample:
    tables = [t.table for p in OPERATIONS for t in p.tables]
    with db.write() as conn:
        for table in tables:
            conn.execute(sa.delete(table))
        # Empty tables under a zero watermark and zeroed row counters: nothing for start-up
        # self-healing to rebuild (ADR 0133), so the runner folds the whole log itself.
        reset_row_counts(conn, tables)
        set_watermark(conn, "operations", 0)
    runner = ProjectionRunner(db, reg, batch_size=BATCH)
    assert runner.prepare() == [], "the bench's emptied read models were healed, not followed"
    started, cpu = time.perf_counter(), time.process_time()
    runner.catch_up()
    return runner.stats.events, time.perf_counter() - started, time.process_time() - cpu


class FullCollections:
    """The full cyclic collections (generation 2) that fall inside each subject's measured samples:
    how many, and their process CPU seconds (ADR 0435).  A ``gc.callbacks`` entry while the suite runs;
    a collection outside ``during`` (set-up, the collection between samples) is not counted."""

    def __init__(self) -> None:
        self.count: dict[str, int] = defaultdict(int)
        self.cpu_s: dict[str, float] = defaultdict(float)
        self._subject: str | None = None
        self._started = 0.0

    @contextmanager
    def during(self, subject: str) -> Iterator[None]:
        self._subject = subject
        try:
            yield
        finally:
            self._subject = None

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2 or self._subject is None:
            return
        if phase == "start":
            self._started = time.process_time()
        else:
            self.count[self._subject] += 1
            self.cpu_s[self._subject] += time.process_time() - self._started


def _measured(
    name: str,
    subject: Callable[[], Sample],
    cpu_rates: dict[str, list[float]],
    collections: FullCollections,
) -> Subject:
    """A bench subject: the wall rate of one sample, its CPU rate kept in ``cpu_rates[name]``; the
    previous subject's garbage is collected first, so no sample pays for another's, and the full
    collections inside the sample are counted in ``collections``."""

    def sample(_round: int) -> float:
        gc.collect()
        with collections.during(name):
            events, wall, cpu = subject()
        cpu_rates[name].append(events / cpu)
        return events / wall

    return sample


def run(results: dict[str, Any]) -> None:
    events = int(os.environ.get("JOBCTRL_BENCH_EVENTS", DEFAULT_EVENTS))
    reg = registry()
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-") as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'bench.db'}")
        try:
            store = EventStore(db, reg)
            store.create_schema()
            written = write_log(
                db, generate(events // EVENTS_PER_JOB + 1, seed=1, workflows=8, runs=3), limit=events
            )
            migrate(db)
            plain: dict[str, Callable[[], Sample]] = {
                "read": lambda: _read_decode(db, store, reg),
                "rebuild": lambda: _rebuild(db, reg, written),
                "follow": lambda: _follow(db, reg),
            }
            for subject in plain.values():
                subject()  # warm-up, not measured
            cpu_rates: dict[str, list[float]] = {name: [] for name in plain}
            collections = FullCollections()
            gc.callbacks.append(collections)
            try:
                samples = interleave(
                    {
                        name: _measured(name, subject, cpu_rates, collections)
                        for name, subject in plain.items()
                    },
                    rounds(5),
                )
            finally:
                gc.callbacks.remove(collections)
        finally:
            db.dispose()
    results["projections.events"] = written
    results["read.decode_per_s"] = round(samples.median("read"), 1)
    results["rebuild.events_per_s"] = round(samples.median("rebuild"), 1)
    results["rebuild.seconds"] = round(written / samples.median("rebuild"), 2)
    results["follow.events_per_s"] = round(samples.median("follow"), 1)
    results["rebuild.ratio_vs_read"] = round(samples.ratio("rebuild", "read"), 3)
    results["follow.ratio_vs_rebuild"] = round(samples.ratio("follow", "rebuild"), 3)
    cpu = Samples(cpu_rates)
    results["rebuild.cpu_ratio_vs_read"] = round(cpu.ratio("rebuild", "read"), 3)
    results["follow.cpu_ratio_vs_rebuild"] = round(cpu.ratio("follow", "rebuild"), 3)
    results["projections.rounds"] = len(cpu_rates["read"])
    for name, rates in cpu_rates.items():
        results[f"{name}.gc_full_per_sample"] = round(collections.count[name] / len(rates), 2)
        results[f"{name}.gc_full_cpu_ms_per_sample"] = round(collections.cpu_s[name] * 1000 / len(rates), 1)
