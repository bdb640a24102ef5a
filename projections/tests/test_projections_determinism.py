"""Incremental folding (random batch sizes, restarts, events arriving meanwhile) equals a rebuild."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.testing.synthetic import LogWriter, generate

pytestmark = pytest.mark.both_databases


def test_incremental_folds_with_restarts_equal_a_full_rebuild(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    rng = random.Random(2026)
    log = LogWriter(
        generate(90, seed=42, workflows=3, runs=3, outreach=40), corrupt_every=211, extra_key_every=17
    )
    total = 0
    for _ in range(6):  # the log grows while runners come and go
        total += log.write(database, limit=rng.randint(250, 700))
        for _ in range(rng.randint(1, 3)):  # a runner folds a while, then "restarts"
            runner = ProjectionRunner(database, reg, batch_size=rng.randint(1, 150))
            for _ in range(rng.randint(1, 8)):
                runner.step()
    ProjectionRunner(database, reg, batch_size=rng.randint(1, 150)).catch_up()
    assert store.head_position() == total > 1500
    incremental = table_digests(database)
    with database.read() as conn:  # every read model took part, so the comparison is not vacuous
        empty = [
            t.name
            for p in OPERATIONS
            for t in p.tables
            if conn.execute(sa.select(sa.func.count()).select_from(t.table)).scalar_one() == 0
        ]
    assert empty == ["contact_research_task_projections"]  # no research stories
    with database.read() as conn:  # the folds under test left their marks (ADR 0275)
        warm = conn.execute(sa.text("SELECT sum(warm_intros) FROM contact_projections")).scalar_one()
        replies = conn.execute(sa.text("SELECT sum(replies) FROM outreach_thread_projections")).scalar_one()
    assert warm == 6 and replies > 0
    rebuild(database, reg, batch_size=997)
    assert table_digests(database) == incremental
    rebuild(database, reg, batch_size=13, cache_capacity=50)  # rows evicted and re-read many times
    assert table_digests(database) == incremental
