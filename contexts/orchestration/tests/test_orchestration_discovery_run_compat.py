"""The discovery run moved from discovery to orchestration (ADR 0180): logs written before the move fold
the same, and the new writers write what the old ones wrote.

``discovery_runs_before_issue_11.json`` was produced by the code on main before the move:
``discovery_run_calls.json`` (starts and a repeated start, progress forward, backward, silent and
after the end, a completion with one failed family, a failure of every family, interrupts before and
after a terminal fact, a run never started, the describe reconciler's orphan close for a terminated,
a completed and a canceled run) driven through discovery's run commands, the runtime's discovery-run
activities and the runtime's orphan close, with the ``discovery_run_projections`` and
``discovery_executions`` rows the runner folded from it.  The same calls now go through
orchestration's use cases and activities.  A source scan shows no product code outside
orchestration's ``DiscoveryRun`` aggregate builds a ``DiscoveryRun*`` event.
"""

from __future__ import annotations

import ast
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jobctrl.activity_contracts.contracts import (
    FamilyOutcome,
    FinishDiscoveryRunInput,
    InterruptDiscoveryRunInput,
    ProgressTick,
    ReportDiscoveryProgressInput,
    SourceFamilyResult,
)
from jobctrl.discovery.use_cases.close_execution_membership import InterruptedMembershipCloser
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration import (
    DescribedStatus,
    DiscoveryRunLog,
    WorkflowRun,
    close_orphaned_discovery_run,
)
from jobctrl.orchestration.activities import DiscoveryRunActivities
from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
    discovery_executions,
)
from jobctrl.projections.read_models.discovery_runs import discovery_run_projections
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.testing import recorded_logs as recorded

pytestmark = pytest.mark.both_databases
FIXTURES = Path(__file__).parent / "fixtures"
TABLES = (discovery_run_projections, discovery_executions, discovery_execution_jobs)
WORKSPACE = Path(__file__).resolve().parents[3]
RUN_EVENTS = frozenset(
    {"DiscoveryRunStarted", "DiscoveryRunProgressRecorded", "DiscoveryRunCompleted", "DiscoveryRunFailed"}
)
THE_WRITER = WORKSPACE / "contexts/orchestration/src/jobctrl/orchestration/domain/discovery_run.py"


def _fixture() -> dict[str, Any]:
    return recorded.load_fixture(FIXTURES / "discovery_runs_before_issue_11.json")


def _comparable(row: dict[str, Any]) -> dict[str, Any]:
    """A log row without its event id (ids are fresh per append)."""
    raw = row["metadata"]
    meta = {k: v for k, v in (json.loads(raw) if isinstance(raw, str) else raw).items() if k != "eventId"}
    payload = row["payload"]
    payload = json.loads(payload) if isinstance(payload, str | bytes) else payload
    return {
        **{c: row[c] for c in recorded.LOG_COLUMNS if c != "payload"},
        "payload": payload,
        "metadata": meta,
    }


def _same_tables(database: Database, fixture: dict[str, Any]) -> None:
    for table in TABLES:
        assert recorded.table_rows(database, table) == recorded.recorded_rows(fixture, table), table.name


def test_a_rebuild_of_a_log_written_before_the_move_equals_its_read_models(database: Database) -> None:
    fixture = _fixture()
    recorded.open_store(database)
    log = [{**r, "metadata": r["metadata"], "payload": r["payload"]} for r in fixture["log"]]
    with database.write() as conn:
        conn.execute(job_events.insert(), log)
    ProjectionRunner(database, registry(), batch_size=5).catch_up()
    _same_tables(database, fixture)


def _outcome(family: str, counts: list[int] | None, code: str | None, retryable: bool) -> FamilyOutcome:
    if counts is None:
        return FamilyOutcome(family, None, code, retryable)
    total, new, existing, observed, duplicate, rejected = counts
    result = SourceFamilyResult(family, observed, new, total, existing, duplicate, rejected)
    return FamilyOutcome(family, result, code, retryable)


def _drive(store: EventStore, clock: FixedClock) -> None:
    """``discovery_run_calls.json`` through orchestration's production use cases and activities."""
    runs = DiscoveryRunLog(store, clock)
    closer = InterruptedMembershipCloser(store, clock)
    acts = DiscoveryRunActivities(store, close_membership=closer, clock=clock)
    for c in json.loads((FIXTURES / "discovery_run_calls.json").read_text()):
        clock.advance(timedelta(seconds=1))
        ex = ExecutionRef("local", c["wf"], c["run"])
        if c["call"] == "start":
            runs.start(
                run_id=c["run"], source_ids=c["sources"], family_count=c["families"], workflow_id=c["wf"]
            )
        elif c["call"] == "progress":
            acts.report_discovery_progress(
                ReportDiscoveryProgressInput(ex, ProgressTick(c["done"], c["total"]))
            )
        elif c["call"] == "finish":
            families = [_outcome(*f) for f in c["families"]]
            acts.finish_discovery_run(FinishDiscoveryRunInput(ex, families))
        elif c["call"] == "interrupt":
            acts.interrupt_discovery_run(InterruptDiscoveryRunInput(ex, c["reason"], c["retryable"]))
        else:
            run = WorkflowRun.new(c["wf"], c["run"])
            run.workflow_type = "DiscoverWorkflow"
            described = DescribedStatus(c["status"])
            close_orphaned_discovery_run(store, run, "local", described, c["reason"], clock, closer)


def test_the_orchestration_writers_append_what_the_old_ones_did_and_it_folds_the_same(
    database: Database,
) -> None:
    fixture = _fixture()
    store = recorded.open_store(database)
    _drive(store, FixedClock(datetime(2026, 3, 2, 9, tzinfo=UTC)))
    assert [_comparable(r) for r in recorded.log_rows(database)] == [_comparable(r) for r in fixture["log"]]
    ProjectionRunner(database, registry()).catch_up()
    _same_tables(database, fixture)


def _product_sources() -> list[Path]:
    roots = [WORKSPACE / "contexts", WORKSPACE / "packages"]
    return [
        p
        for root in roots
        for p in root.glob("*/src/**/*.py")
        if "/testing/" not in p.as_posix() and "/migrations/" not in p.as_posix()
    ] + [p for p in (WORKSPACE / "projections/src").glob("**/*.py") if "/migrations/" not in p.as_posix()]


def test_only_orchestrations_discovery_run_aggregate_builds_a_discovery_run_event() -> None:
    builders: set[str] = set()
    for path in _product_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RUN_EVENTS:
                builders.add(path.relative_to(WORKSPACE).as_posix())
    assert builders == {THE_WRITER.relative_to(WORKSPACE).as_posix()}
