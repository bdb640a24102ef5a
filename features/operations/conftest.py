"""Steps for features/operations: past events go into the log and are folded by the projection
runner; worker heartbeats are written by the telemetry's own ``write_heartbeat``; the snapshot is
read by ``read_operations`` (the same function the HTTP route serves)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.stages import STAGES
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.spend_ledger import ledger_with_settings
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    StageBlocked,
    StageCompleted,
    StageExhausted,
    StageStarted,
    StepDetail,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
)
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.healing import heal, verify_projections
from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.recoveries import (
    ExecutionKey,
    KeySets,
    discovery_execution_recoveries,
    persisted_key_sets,
    record_native_checkpoint,
    verify_native_execution,
)
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.runtime.api.operations import (
    OperationsSnapshot,
    SnapshotInputs,
    budget_blocked,
    ensure_operations_schema,
    read_operations,
)
from jobctrl.runtime.reconcile.coverage import reconcile_coverage
from jobctrl.runtime.telemetry.heartbeat import (
    RuntimeIdentity,
    worker_runtime_heartbeats,
    write_heartbeat,
)
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.testing.vocabulary import one_of

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
WF = "discover-local"
RUN = "11111111-1111-4111-8111-111111111111"
REF = ExecutionRefPayload(tenant_id="local", workflow_id=WF, temporal_run_id=RUN)
KEY = ExecutionKey("local", WF, RUN)
COHORTS: dict[str, CohortKind] = {"observed": "observed_this_run", "swept": "existing_backlog"}


@dataclass
class World:
    store: EventStore
    seq: int = 0
    snapshot: OperationsSnapshot | None = None
    checkpoint: str | None = None
    coverage: dict[str, str] = field(default_factory=dict)
    telemetry: RuntimeTelemetry = field(default_factory=RuntimeTelemetry)

    @property
    def db(self) -> Database:
        return self.store.db

    def append(self, event: DomainEvent, at: datetime | None = None) -> None:
        self.seq += 1
        new = NewEvent.of(event, occurred_at=at or NOW - timedelta(hours=1), event_id=f"ev-{self.seq}")
        self.store.append("feature", None, [new])

    def fold(self) -> None:
        ProjectionRunner(self.db, self.store.registry, batch_size=50).catch_up()


@pytest.fixture
def world(database: Database) -> World:
    store = EventStore(database, registry())
    store.create_schema()
    ensure_operations_schema(database)
    return World(store)


def _iso(dt: datetime) -> str:
    return isoformat(dt)


def _stage_done(world: World, job: str, word: str, ms: int, at: datetime | None = None) -> None:
    when_ = at or NOW - timedelta(hours=1)
    stage = one_of(STAGES, word)
    world.append(StageStarted(job_id=job, stage=stage, attempt_number=1, started_at=_iso(when_)), when_)
    world.append(
        StageCompleted(job_id=job, stage=stage, finished_at=_iso(when_), duration_ms=ms),
        when_,
    )


# -- the execution ----------------------------------------------------------------------------------


@given(parsers.parse('a Discover execution that is "{status}"'))
def discover_execution(world: World, status: str) -> None:
    world.append(
        WorkflowStarted(
            workflow_id=WF,
            workflow_type="DiscoverWorkflow",
            status="in_progress",
            input_summary={},
            started_at=_iso(NOW - timedelta(hours=2)),
            temporal_run_id=RUN,
        )
    )
    common: dict[str, Any] = {
        "workflow_id": WF,
        "workflow_type": "DiscoverWorkflow",
        "finished_at": _iso(NOW - timedelta(minutes=30)),
        "duration_ms": 1000,
        "temporal_run_id": RUN,
    }
    if status == "succeeded":
        world.append(WorkflowCompleted(status="succeeded", **common))
    elif status == "failed":
        world.append(
            WorkflowFailed(
                status="failed", error_code="source_failed", error_message="x", retryable=False, **common
            )
        )


def _link(world: World, job: str, cohort: str, plan: str) -> None:
    world.append(
        DiscoveryExecutionMemberLinked(execution=REF, job_id=job, cohort=COHORTS[cohort], linked_at=_iso(NOW))
    )
    if plan == "planned":
        world.append(
            DiscoveryExecutionWorkPlanRecorded(
                execution=REF,
                job_id=job,
                state="planned",
                required_steps=["enrich", "score"],
                child_workflow_id=f"prep-{job}",
                reason_code=None,
                recorded_at=_iso(NOW),
            )
        )
    elif plan == "not eligible":
        world.append(
            DiscoveryExecutionWorkPlanRecorded(
                execution=REF,
                job_id=job,
                state="not_eligible",
                required_steps=[],
                child_workflow_id=None,
                reason_code="already_applied",
                recorded_at=_iso(NOW),
            )
        )


@given(parsers.parse('{count:d} {cohort} jobs "{prefix}" that are {plan}'))
def linked_jobs(world: World, count: int, cohort: str, prefix: str, plan: str) -> None:
    for i in range(count):
        _link(world, f"{prefix}{i}", cohort, plan)


@given(parsers.parse('jobs "{prefix}" {first:d} to {last:d} finished "{stage}" in {ms:d} ms'))
def jobs_finished(world: World, prefix: str, first: int, last: int, stage: str, ms: int) -> None:
    for i in range(first, last + 1):
        _stage_done(world, f"{prefix}{i}", stage, ms)


@given(parsers.parse('jobs "{prefix}" {first:d} to {last:d} are running "{stage}"'))
def jobs_running(world: World, prefix: str, first: int, last: int, stage: str) -> None:
    for i in range(first, last + 1):
        at = NOW - timedelta(minutes=5)
        world.append(
            StageStarted(
                job_id=f"{prefix}{i}", stage=one_of(STAGES, stage), attempt_number=1, started_at=_iso(at)
            ),
            at,
        )


@given(parsers.parse('job "{job}" is blocked at "{stage}"'))
def job_blocked(world: World, job: str, stage: str) -> None:
    world.append(
        StageBlocked(
            job_id=job,
            stage=one_of(STAGES, stage),
            blocked_by=["enrich"],
            error_code="upstream_failed",
            error_message="x",
        )
    )


@given(parsers.parse('job "{job}" exhausted "{stage}"'))
def job_exhausted(world: World, job: str, stage: str) -> None:
    world.append(StageExhausted(job_id=job, stage=one_of(STAGES, stage), attempt_count=3, max_attempts=3))


@given("the membership is closed")
def membership_closed(world: World) -> None:
    world.append(
        PipelineStepCompleted(
            execution=REF,
            step_kind="preparation_fanout",
            item_key="fanout",
            attempt=1,
            detail=StepDetail(code="workflows_started", item_count=1),
            completed_at=_iso(NOW - timedelta(minutes=40)),
            duration_ms=100,
        )
    )


@given("the membership closing is recorded")
def membership_closing_recorded(world: World) -> None:
    world.append(DiscoveryExecutionMembershipClosed(execution=REF, member_count=2, closed_at=_iso(NOW)))


# -- recovery checkpoint ------------------------------------------------------------------------------


@given("the reconciler verified a native checkpoint of what is persisted")
@when("the reconciler verifies a native checkpoint of what is persisted")
def checkpoint_of_persisted(world: World) -> None:
    world.fold()
    with world.db.read() as conn:
        expected = persisted_key_sets(conn, KEY)
    world.checkpoint = record_native_checkpoint(world.db, KEY, expected, history_event_id=42, now=_iso(NOW))


@given("the projections have caught up")
def caught_up(world: World) -> None:
    world.fold()


@given(parsers.parse('job "{job}" is linked to the execution but not yet projected'))
def linked_not_projected(world: World, job: str) -> None:
    _link(world, job, "observed", "pending")


@when("the reconciler verifies the execution against the event log")
def verify_against_log(world: World) -> None:
    world.checkpoint = verify_native_execution(world.store, KEY, history_event_id=7, now=_iso(NOW))


@when(parsers.parse('the reconciler expects job "{job}" instead of job "{other}"'))
def checkpoint_with_other_key(world: World, job: str, other: str) -> None:
    world.fold()
    with world.db.read() as conn:
        persisted = persisted_key_sets(conn, KEY)
    expected = KeySets((persisted.members - {other}) | {job}, persisted.steps)
    world.checkpoint = record_native_checkpoint(world.db, KEY, expected, history_event_id=42, now=_iso(NOW))


@when(parsers.parse('someone rewrites the membership row of job "{job}" to "{new}"'))
def tamper_membership(world: World, job: str, new: str) -> None:
    t = discovery_execution_jobs
    with world.db.write() as conn:
        conn.execute(sa.update(t).where(t.c.job_id == job).values(job_id=new))


@when("the projections catch up")
def catch_up(world: World) -> None:
    world.fold()


@then(parsers.parse('the deep projection check finds "{projection}" broken by "{reason}"'))
def deep_check_finds(world: World, projection: str, reason: str) -> None:
    findings = verify_projections(world.db, OPERATIONS, watermark=OPERATIONS_WATERMARK, deep=True)
    assert [(f.projection, f.reason) for f in findings] == [(projection, reason)], findings


@when("the projections heal with the deep check")
def heal_deep(world: World) -> None:
    assert heal(world.db, world.store.registry, OPERATIONS, watermark=OPERATIONS_WATERMARK, deep=True)


@then(parsers.parse('job "{job}" is a member of the execution again'))
def member_again(world: World, job: str) -> None:
    t = discovery_execution_jobs
    with world.db.read() as conn:
        members = set(conn.execute(sa.select(t.c.job_id).where(t.c.run_id == RUN)).scalars())
    assert job in members and "forged" not in members, members


@when("someone changes the checkpoint's digest")
def tamper_checkpoint(world: World) -> None:
    t = discovery_execution_recoveries
    with world.db.write() as conn:
        conn.execute(sa.update(t).where(t.c.run_id == RUN).values(key_digest="f" * 64))


@when("the runtime writes the coverage checkpoints")
def runtime_coverage(world: World) -> None:
    world.coverage = reconcile_coverage(world.store, FixedClock(NOW)).published


@then(parsers.parse('the runtime published "{status}"'))
def runtime_published(world: World, status: str) -> None:
    assert world.coverage == {RUN: status}, world.coverage


@then(parsers.parse('the runtime published "{status}" for "{workflow}"'))
def runtime_published_for(world: World, status: str, workflow: str) -> None:
    assert world.coverage[f"{workflow}-run"] == status, world.coverage


@then(parsers.parse('the overall ETA is not withheld as "{reason}"'))
def overall_not_withheld_as(world: World, reason: str) -> None:
    assert _snap(world)["overallEta"]["reason"] != reason


@given("an undecodable pipeline-step event of the execution is in the log")
def undecodable_step(world: World) -> None:
    # A row whose payload names the execution but breaks the event's schema (a corrupt import):
    # the projection skips it, and the log is then no exact evidence for this execution.
    row = {
        "event_id": "ev-corrupt",
        "stream_id": "feature-corrupt",
        "stream_version": 1,
        "event_type": "PipelineStepQueued",
        "schema_version": 1,
        "tenant_id": "local",
        "job_id": None,
        "occurred_at": _iso(NOW),
        "payload": json.dumps(
            {"execution": {"tenantId": "local", "workflowId": WF, "temporalRunId": RUN}, "stepKind": 7}
        ),
        "metadata": "{}",
    }
    with world.db.write() as conn:
        conn.execute(sa.insert(job_events).values(**row))
    world.fold()


@given(
    parsers.parse(
        'a Discover execution "{workflow}" that is "failed" with {count:d} observed jobs'
        " and a closed membership"
    )
)
def failed_execution(world: World, workflow: str, count: int) -> None:
    run = f"{workflow}-run"
    ref = ExecutionRefPayload(tenant_id="local", workflow_id=workflow, temporal_run_id=run)
    world.append(
        WorkflowStarted(
            workflow_id=workflow, workflow_type="DiscoverWorkflow", status="in_progress", input_summary={},
            started_at=_iso(NOW - timedelta(hours=2)), temporal_run_id=run,
        )
    )  # fmt: skip
    for i in range(count):
        world.append(
            DiscoveryExecutionMemberLinked(
                execution=ref, job_id=f"f{i}", cohort="observed_this_run", linked_at=_iso(NOW)
            )
        )
    world.append(
        DiscoveryExecutionMembershipClosed(
            execution=ref, member_count=count, closed_at=_iso(NOW), reason_code="interrupted_source_failed"
        )
    )
    world.append(
        WorkflowFailed(
            workflow_id=workflow, workflow_type="DiscoverWorkflow", status="failed",
            error_code="source_failed", error_message="x", retryable=False,
            finished_at=_iso(NOW - timedelta(minutes=30)),
            duration_ms=1000, temporal_run_id=run,
        )
    )  # fmt: skip


@then(parsers.parse('the checkpoint writer published "{status}"'))
def checkpoint_published(world: World, status: str) -> None:
    assert world.checkpoint == status


# -- heartbeats and budget -------------------------------------------------------------------------------


def _heartbeat(world: World, seen: datetime, slots: int = 4) -> None:
    identity = RuntimeIdentity.current(
        app_dir="/tmp/app", db_path="/tmp/app/jobctrl.db", task_queue="jobctrl", slots=slots, now=seen
    )
    write_heartbeat(world.db, identity, world.telemetry, seen, {"approximate": True, "backlogCount": 0})


@given(parsers.parse('a worker with {slots:d} slots running {count:d} "{kind}" activities'))
def busy_worker(world: World, slots: int, count: int, kind: str) -> None:
    for i in range(count):
        world.telemetry.begin(kind, f"prep-preparation:{i:064x}", "run", 1)
    _heartbeat(world, NOW - timedelta(seconds=5), slots)


@given("an idle worker with a fresh heartbeat")
def idle_worker(world: World) -> None:
    _heartbeat(world, NOW - timedelta(seconds=5))


@given(parsers.parse("a busy worker whose last heartbeat is {age:d} seconds old"))
def old_worker(world: World, age: int) -> None:
    world.telemetry.begin("score", "discover-local", "run", 1)
    _heartbeat(world, NOW - timedelta(seconds=age))


@given("the only worker heartbeat has an older schema")
def old_schema_worker(world: World) -> None:
    _heartbeat(world, NOW - timedelta(seconds=5))
    with world.db.write() as conn:
        conn.execute(sa.update(worker_runtime_heartbeats).values(schema_version=1))


@given("today's LLM spend is at the daily ceiling")
def spend_at_ceiling(world: World) -> None:
    clock = FixedClock(NOW)
    SettingsStore(world.db, clock=clock).update({"daily_budget_usd": 1.0})
    ledger_with_settings(world.db, clock=clock).add(1.0)


# -- the snapshot ------------------------------------------------------------------------------------------


@when("the operations snapshot is read")
def read_snapshot(world: World) -> None:
    world.fold()
    blocked = budget_blocked(world.db, clock=FixedClock(NOW))
    with world.db.read() as conn:
        world.snapshot = read_operations(conn, SnapshotInputs(now=NOW, budget_exceeded=blocked))


def _snap(world: World) -> dict[str, Any]:
    assert world.snapshot is not None
    out: dict[str, Any] = msgspec.to_builtins(world.snapshot)
    return out


def _value(text: str) -> Any:
    return None if text == "null" else msgspec.json.decode(text)


@then(parsers.re(r"(?P<path>[a-zA-Z][\w.]*) is (?P<value>\S+)"))
def field_is(world: World, path: str, value: str) -> None:
    node: Any = _snap(world)
    for part in path.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    assert node == _value(value), f"{path} = {node!r}"


@then(parsers.parse('the "{stage}" counts in {scope} are {counts}'))
def stage_counts_are(world: World, stage: str, scope: str, counts: str) -> None:
    entry = next(s for s in _snap(world)["stages"] if s["stage"] == stage and s["scope"] == scope)
    for pair in counts.split(", "):
        name, n = pair.split("=")
        assert entry[name] == int(n), f"{stage}/{scope}.{name} = {entry[name]}"


@then(parsers.parse('the "{stage}" ETA in {scope} is "{status}"'))
def stage_eta_is(world: World, stage: str, scope: str, status: str) -> None:
    entry = next(s for s in _snap(world)["stages"] if s["stage"] == stage and s["scope"] == scope)
    assert entry["eta"]["status"] == status, entry["eta"]


@then(parsers.parse('the overall ETA is "{status}" because "{reason}"'))
def overall_withheld(world: World, status: str, reason: str) -> None:
    eta = _snap(world)["overallEta"]
    assert (eta["status"], eta["reason"]) == (status, reason), eta
    assert eta["lowSeconds"] is None and eta["highSeconds"] is None


@then("the overall ETA is an available range")
def overall_available(world: World) -> None:
    eta = _snap(world)["overallEta"]
    assert eta["status"] == "available", eta
    assert 0 <= eta["lowSeconds"] <= eta["highSeconds"]
