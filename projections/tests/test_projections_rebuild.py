"""Rebuild is transactional and equals the incremental fold; lost rows heal; old schemas migrate."""

from __future__ import annotations

import gc

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore, database_identity
from jobctrl.orchestration.events import StageStarted, WorkflowStarted
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.migrate import VERSION_TABLE, current_revision, head_revision, migrate
from jobctrl.projections.model import EventInfo, Fold, Projection
from jobctrl.projections.read_models import stage_states
from jobctrl.projections.read_models.stage_states import StageStateRow
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import metadata
from jobctrl.projections.watermarks import read_watermark
from jobctrl.testing.synthetic import generate, write_log

from .conftest import Append

pytestmark = pytest.mark.both_databases


def _as_found(found: int) -> bool:
    """Frozen objects still die by reference counting, so the count is compared as "any or none"."""
    return (gc.get_freeze_count() > 0) == (found > 0)


def _folded(database: Database, reg: EventRegistry, jobs: int = 40) -> dict[str, str]:
    write_log(database, generate(jobs, seed=11), corrupt_every=101)
    ProjectionRunner(database, reg, batch_size=64).catch_up()
    return table_digests(database)


def test_full_rebuild_reproduces_the_incremental_fold(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    found = gc.get_freeze_count()  # the test's own freeze (ADR 0427), when the plugin runs
    incremental = _folded(database, reg)
    assert _as_found(found)  # each runner batch thaws what it froze, and only that (ADR 0232, 0426)
    result = rebuild(database, reg, batch_size=50)
    assert table_digests(database) == incremental
    assert result.position == store.head_position() and result.skipped > 0
    assert _as_found(found)  # the heap frozen for the rebuild's cache is thawed (ADR 0232)


def test_a_rebuild_that_fails_halfway_changes_nothing(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    found = gc.get_freeze_count()
    before = _folded(database, reg)
    with database.read() as conn:
        watermark = read_watermark(conn, "operations")
    calls = {"n": 0}

    # fails on the 200th stage event, after several committed batches
    def explode(row: StageStateRow | None, event: StageStarted, info: EventInfo) -> StageStateRow:
        calls["n"] += 1
        if calls["n"] == 200:
            raise RuntimeError("disk full")
        return stage_states.on_started(row, event, info)

    broken = Projection(
        "stage_states",
        stage_states.PROJECTION.tables,
        tuple(
            Fold(f.event, f.target, f.key, explode) if f.event.event_type == "StageStarted" else f
            for f in stage_states.PROJECTION.folds
        ),
    )
    projections = tuple(broken if p.name == "stage_states" else p for p in OPERATIONS)
    with pytest.raises(RuntimeError, match="disk full"):
        rebuild(database, reg, projections=projections, batch_size=20)
    assert _as_found(found)  # thawed on failure too
    assert table_digests(database) == before
    with database.read() as conn:
        assert read_watermark(conn, "operations") == watermark


def test_a_partial_rebuild_stops_at_the_shared_watermark(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    before = _folded(database, reg)
    write_log(database, generate(5, seed=99), namespace="later")  # newer events the runner has not folded yet
    with database.write() as conn:
        conn.execute(sa.delete(workflow_run_projections))
    result = rebuild(database, reg, ["workflow_runs"])
    with database.read() as conn:
        assert result.position == read_watermark(conn, "operations") < store.head_position()
    assert table_digests(database) == before


def test_start_up_heals_a_projection_whose_rows_are_missing(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    before = _folded(database, reg)
    with database.write() as conn:
        conn.execute(sa.delete(workflow_run_projections))
    healed = ProjectionRunner(database, reg).prepare()
    assert healed == ["workflow_runs"]
    assert table_digests(database) == before
    assert ProjectionRunner(database, reg).prepare() == []  # healthy now: nothing more to do


def test_an_older_read_model_schema_is_migrated_before_use(
    database: Database, reg: EventRegistry, store: EventStore, append: Append
) -> None:
    migrate(database, "p0001")  # the legacy shape an older install carries
    append(
        [
            WorkflowStarted(
                workflow_id="wf",
                workflow_type="Discover",
                status="in_progress",
                input_summary={},
                started_at="2026-03-01T09:00:00.000Z",
                temporal_run_id="r1",
            )
        ]
    )
    with database.write() as conn:
        conn.execute(sa.text("INSERT INTO projection_watermarks (name, position) VALUES ('operations', 1)"))
        conn.execute(
            sa.text(
                "INSERT INTO workflow_run_projections (tenant_id, workflow_id, workflow_type, run_id, "
                "status, last_event_position) VALUES ('local', 'wf', 'Discover', 'r1', 'in_progress', 1)"
            )
        )
    runner = ProjectionRunner(database, reg)
    # The legacy rows cannot carry a timeline: the migration drops them and start-up rebuilds them (and
    # the dashboard counters and the per-run history (p0012), which the old schema did not have) from
    # the log.
    assert runner.prepare() == ["workflow_runs", "workflow_run_history", "dashboard"]
    assert current_revision(database) == head_revision()
    with database.read() as conn:
        row = conn.execute(sa.select(workflow_run_projections)).one()
    assert row.status == "in_progress" and row.timeline_total == 1 and row.run_id == "r1"
    assert runner.catch_up() == 0


def test_the_migrated_schema_matches_the_tables_the_code_declares(database: Database) -> None:
    migrate(database)
    with database.read() as conn:
        # Every database also holds the kernel's identity row (ADR 0102), which no migration owns.
        def ours(name: str | None, type_: str, _parent: object) -> bool:
            return not (type_ == "table" and name == database_identity.name)

        context = MigrationContext.configure(
            conn, opts={"version_table": VERSION_TABLE, "include_name": ours}
        )
        diffs = compare_metadata(context, metadata)
    assert diffs == []


def test_a_p0003_install_is_migrated_and_its_recreated_and_new_read_models_are_refilled(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    migrate(database, "p0003")  # before the v2 stage fold and the discovery/profile/policy read models
    write_log(database, generate(30, seed=5, workflows=2, runs=2))
    head = store.head_position()
    with database.write() as conn:  # the old runner had folded everything; an old-shaped stage row
        conn.execute(
            sa.text(f"INSERT INTO projection_watermarks (name, position) VALUES ('operations', {head})")
        )
        conn.execute(
            sa.text(
                "INSERT INTO job_stage_states (tenant_id, job_id, stage, state, attempts, blocked_by_json, "
                "skip_reason, next_action, last_event_position) "
                "VALUES ('local', 'job-0000001', 'cover', 'blocked', 0, '[\"UPSTREAM_TAILOR_FAILED\"]', "
                "NULL, 'run', 1)"
            )
        )
    healed = ProjectionRunner(database, reg).prepare()
    assert current_revision(database) == head_revision()
    for name in (
        "stage_states",
        "dashboard",
        "discovery_executions",
        "discovery_runs",
        "source_quality",
        "profiles",
    ):
        assert name in healed
    refilled = table_digests(database)
    rebuild(database, reg)
    assert table_digests(database) == refilled
