"""The whole-table stage totals are reused only while the operations watermark stays put."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.events import StageStarted
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.runtime.api.operations import (
    SnapshotInputs,
    TotalsCache,
    ensure_operations_schema,
    read_operations,
)

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 2, 12, tzinfo=UTC)


def _start(store: EventStore, job: str) -> None:
    event = StageStarted(job_id=job, stage="enrich", attempt_number=1, started_at="2026-03-02T11:00:00.000Z")
    store.append(job, None, [NewEvent.of(event, occurred_at=NOW)])
    ProjectionRunner(store.db, store.registry).catch_up()


def _eligible(db: Database, cache: TotalsCache) -> int:
    with db.read() as conn:
        snap = read_operations(conn, SnapshotInputs(now=NOW, totals_cache=cache))
    entry = next(s for s in snap.stages if s.stage == "enrich" and s.scope == "global_outside_execution")
    return entry.eligible


def test_totals_follow_the_watermark(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    ensure_operations_schema(database)
    cache = TotalsCache()
    _start(store, "a")
    assert _eligible(database, cache) == 1
    assert _eligible(database, cache) == 1  # served from the cache: same watermark
    _start(store, "b")  # the runner advances the watermark with the new row
    assert _eligible(database, cache) == 2
