"""An execution's member groups are reused only while the operations watermark stays put (ADR 0237):
the same snapshot while it holds, the new rows as soon as it moves; without a cache, always live."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.groupcount import refill
from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.read_models.member_groups import discovery_execution_member_groups
from jobctrl.projections.read_models.member_groups import refill as refill_groups
from jobctrl.projections.read_models.stage_states import STAGE_GROUPS, job_stage_states
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.watermarks import ensure_watermark, read_watermark, set_watermark
from jobctrl.runtime.api.operations import (
    SnapshotInputs,
    TotalsCache,
    ensure_operations_schema,
    read_operations,
)
from jobctrl.testing.bench.operations import seed

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 2, 12, tzinfo=UTC)


def _current_succeeded(db: Database, cache: TotalsCache | None) -> int:
    with db.read() as conn:
        snap = read_operations(conn, SnapshotInputs(now=NOW, totals_cache=cache))
    return next(s for s in snap.stages if s.stage == "enrich" and s.scope == "current_execution").succeeded


def _finish_every_member(db: Database, advance: bool) -> None:
    with db.write() as conn:
        conn.execute(
            sa.update(job_stage_states)
            .where(
                job_stage_states.c.stage == "enrich",
                job_stage_states.c.job_id.in_([f"job-{i}" for i in range(20)]),
            )
            .values(state="succeeded")
        )
        refill(conn, STAGE_GROUPS, job_stage_states)  # the counts the fold keeps with the rows
        # and the members' groups it keeps with them (ADR 0445)
        refill_groups(conn, discovery_execution_jobs, job_stage_states, discovery_execution_member_groups)
        if advance:  # what the projection runner does in the transaction that writes the rows
            ensure_watermark(conn, OPERATIONS_WATERMARK)
            set_watermark(conn, OPERATIONS_WATERMARK, read_watermark(conn, OPERATIONS_WATERMARK) + 1)


def test_member_groups_follow_the_watermark(database: Database) -> None:
    EventStore(database, registry()).create_schema()
    ensure_operations_schema(database)
    seed(database, 40, 20, NOW)  # 20 members: 16 observed this run, 4 swept
    cache = TotalsCache()
    before = _current_succeeded(database, cache)
    assert before < 16  # the seed leaves some members' enrich unfinished
    assert _current_succeeded(database, cache) == before
    _finish_every_member(database, advance=False)  # rows changed behind a watermark that did not move
    assert _current_succeeded(database, cache) == before  # the cache is keyed by the watermark alone
    assert _current_succeeded(database, None) == 16  # a read without a cache is always live
    _finish_every_member(database, advance=True)
    assert _current_succeeded(database, cache) == 16  # the watermark moved: read again
