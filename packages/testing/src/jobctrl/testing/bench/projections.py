"""Projection throughput on the embedded SQLite default.

A realistic generated log (jobs through every stage with retries, blocks and exhaustion; Discover
runs with retried pipeline steps, duplicate and late terminals, re-runs and recoveries) of
``JOBCTRL_BENCH_EVENTS`` events (default 200,000; the aim is 1,000,000 in ≤ 15 s) is folded:

* ``read.decode_per_s``: baseline, the store's ordered read of every row plus its msgspec decode;
* ``rebuild.events_per_s``: ``rebuild`` of every operations projection (shadow tables + swap);
* ``follow.events_per_s``: the runner's incremental path (CAS watermark, per-batch fold) from zero;
* ``rebuild.ratio_vs_read`` and ``follow.ratio_vs_rebuild``.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.migrate import migrate
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.watermarks import set_watermark
from jobctrl.testing.synthetic import generate, write_log

DEFAULT_EVENTS = 200_000
EVENTS_PER_JOB = 20  # roughly, for the generator's mix


def run(results: dict[str, Any]) -> None:
    events = int(os.environ.get("JOBCTRL_BENCH_EVENTS", DEFAULT_EVENTS))
    reg = registry()
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-") as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'bench.db'}")
        store = EventStore(db, reg)
        store.create_schema()
        written = write_log(
            db, generate(events // EVENTS_PER_JOB + 1, seed=1, workflows=8, runs=3), limit=events
        )
        migrate(db)

        started = time.perf_counter()
        position, decoded = 0, 0
        with db.read() as conn:
            while True:
                batch = store.read_all_in(conn, after=position, limit=5000)
                if not batch:
                    break
                for stored in batch:
                    reg.decode(stored)
                decoded += len(batch)
                position = batch[-1].position
        read_s = time.perf_counter() - started

        started = time.perf_counter()
        rebuild(db, reg, batch_size=5000)
        rebuild_s = time.perf_counter() - started

        with db.write() as conn:
            for projection in OPERATIONS:
                for table in projection.tables:
                    conn.execute(sa.delete(table.table))
            set_watermark(conn, "operations", 0)
        runner = ProjectionRunner(db, reg, batch_size=5000)
        started = time.perf_counter()
        runner.catch_up()
        follow_s = time.perf_counter() - started
        db.dispose()

    read_rate = decoded / read_s
    rebuild_rate = written / rebuild_s
    follow_rate = runner.stats.events / follow_s
    results["projections.events"] = written
    results["read.decode_per_s"] = round(read_rate, 1)
    results["rebuild.events_per_s"] = round(rebuild_rate, 1)
    results["rebuild.seconds"] = round(rebuild_s, 2)
    results["follow.events_per_s"] = round(follow_rate, 1)
    results["rebuild.ratio_vs_read"] = round(rebuild_rate / read_rate, 3)
    results["follow.ratio_vs_rebuild"] = round(follow_rate / rebuild_rate, 3)
