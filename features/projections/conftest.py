"""Shared steps for features/projections: past events go into the log; the runner folds them when a
Then step reads a read model."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationSubmitted,
    ApplyRunStarted,
    EmailApplicationCandidateRecorded,
)
from jobctrl.contact.events import ContactCreated, ContactDeleted
from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.enrichment.events import JobEnriched
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.stages import STAGES
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StageStarted,
    StepDetail,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowStatus,
    WorkflowTerminated,
)
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.healing import verify_projections
from jobctrl.projections.read_models.apply_runs import apply_run_projections
from jobctrl.projections.read_models.contacts import contact_projections
from jobctrl.projections.read_models.dashboard import read_dashboard
from jobctrl.projections.read_models.job_list import job_list_projections
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import OPERATIONS_WATERMARK, metadata
from jobctrl.projections.status import read_status
from jobctrl.scoring.events import JobScored
from jobctrl.testing.synthetic import generate, write_log
from jobctrl.testing.vocabulary import one_of

AT = "2026-03-01T09:00:00.000Z"
EXECUTION = ExecutionRefPayload(tenant_id="local", workflow_id="discover-local", temporal_run_id="r1")


@dataclass
class World:
    store: EventStore
    digests: dict[str, str] = field(default_factory=dict)
    healed: list[str] = field(default_factory=list)

    def append(self, event: DomainEvent, workflow_id: str | None = None, run_id: str | None = None) -> None:
        new = NewEvent.of(
            event, occurred_at=datetime(2026, 3, 1, 9, tzinfo=UTC), workflow_id=workflow_id, run_id=run_id
        )
        self.store.append("feature", None, [new])

    def fold(self) -> Database:
        ProjectionRunner(self.store.db, self.store.registry, batch_size=3).catch_up()
        return self.store.db


@pytest.fixture
def world(database: Database) -> World:
    store = EventStore(database, registry())
    store.create_schema()
    return World(store)


# -- pipeline steps -------------------------------------------------------------------------------
def _step(item: str, attempt: int, what: str, detail: StepDetail | None = None) -> DomainEvent:
    common: dict[str, Any] = {
        "execution": EXECUTION,
        "step_kind": "source_family",
        "item_key": item,
        "attempt": attempt,
        "detail": detail,
    }
    if what == "queued":
        return PipelineStepQueued(**common, queued_at=AT)
    if what == "started":
        return PipelineStepStarted(**common, started_at=AT)
    if what == "completed":
        return PipelineStepCompleted(**common, completed_at=AT, duration_ms=10)
    return PipelineStepFailed(
        **common, failed_at=AT, duration_ms=10, error_code="source_unavailable", retryable=True
    )


@given(parsers.parse('step "{item}" attempt {attempt:d} {what:w}'))
@when(parsers.parse('step "{item}" attempt {attempt:d} {what:w}'))
def step_event(world: World, item: str, attempt: int, what: str) -> None:
    world.append(_step(item, attempt, what))


@given(parsers.parse('step "{item}" attempt {attempt:d} completed with detail "{code}" and count {count:d}'))
def step_with_detail(world: World, item: str, attempt: int, code: str, count: int) -> None:
    world.append(_step(item, attempt, "completed", StepDetail(code=code, item_count=count)))


def _step_row(world: World, item: str) -> Any:
    t = pipeline_step_projections
    with world.fold().read() as conn:
        return conn.execute(sa.select(t).where(t.c.item_key == item)).one()


@then(parsers.parse('step "{item}" shows attempt {attempt:d} as "{status}"'))
def step_shows(world: World, item: str, attempt: int, status: str) -> None:
    row = _step_row(world, item)
    assert (row.attempt, row.status) == (attempt, status)


@then(parsers.parse('step "{item}" shows detail "{code}" with count {count:d}'))
def step_detail(world: World, item: str, code: str, count: int) -> None:
    row = _step_row(world, item)
    assert (row.detail_code, row.detail_item_count) == (code, count)


# -- workflow runs --------------------------------------------------------------------------------
Closing = type[WorkflowCompleted] | type[WorkflowFailed] | type[WorkflowTerminated]
CLOSED_AS: dict[Closing, WorkflowStatus] = {
    WorkflowCompleted: "succeeded",
    WorkflowFailed: "failed",
    WorkflowTerminated: "terminated",
}


def _closed(cls: Closing, wf: str, run: str, **extra: Any) -> DomainEvent:
    status = CLOSED_AS[cls]
    return cls(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status=status,
        finished_at=AT,
        duration_ms=5,
        temporal_run_id=run,
        **extra,
    )


def _started(wf: str, run: str, recovered: bool | None = None) -> DomainEvent:
    return WorkflowStarted(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status="in_progress",
        input_summary={},
        started_at=AT,
        temporal_run_id=run,
        recovered_from_missing_history=recovered,
    )


@given(parsers.parse('workflow "{wf}" run "{run}" started'))
@when(parsers.parse('workflow "{wf}" run "{run}" started'))
def wf_started(world: World, wf: str, run: str) -> None:
    world.append(_started(wf, run))


@given(parsers.parse('workflow "{wf}" run "{run}" completed'))
def wf_completed(world: World, wf: str, run: str) -> None:
    world.append(_closed(WorkflowCompleted, wf, run))


@given(parsers.parse('workflow "{wf}" run "{run}" failed'))
@when(parsers.parse('workflow "{wf}" run "{run}" failed'))
def wf_failed(world: World, wf: str, run: str) -> None:
    world.append(
        _closed(
            WorkflowFailed, wf, run, error_code="activity_failed", error_message="failed", retryable=False
        )
    )


@given(parsers.parse('workflow "{wf}" run "{run}" was reconciled as not found'))
def wf_not_found(world: World, wf: str, run: str) -> None:
    world.append(
        _closed(
            WorkflowTerminated,
            wf,
            run,
            error_code="reconciled_not_found",
            error_message="run not found in history",
        )
    )


@when(parsers.parse('workflow "{wf}" run "{run}" was started again by recovery'))
def wf_recovered(world: World, wf: str, run: str) -> None:
    world.append(_started(wf, run, recovered=True))


@then(parsers.parse('workflow "{wf}" shows run "{run}" as "{status}"'))
def wf_shows(world: World, wf: str, run: str, status: str) -> None:
    t = workflow_run_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.workflow_id == wf)).one()
    assert (row.run_id, row.status) == (run, status)


@then(parsers.parse('the timeline of "{wf}" has {count:d} entries'))
def wf_timeline(world: World, wf: str, count: int) -> None:
    t = workflow_run_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.workflow_id == wf)).one()
    assert row.timeline_total == count


@given(parsers.parse('job "{job}" stage "{stage}" was started by run "{run}" of "{wf}"'))
def stage_started(world: World, job: str, stage: str, run: str, wf: str) -> None:
    world.append(
        StageStarted(job_id=job, stage=one_of(STAGES, stage), attempt_number=1, started_at=AT),
        workflow_id=wf,
        run_id=run,
    )


@then(parsers.parse("the dashboard shows {running:d} running stages and {stale:d} stale stage"))
def dashboard_running(world: World, running: int, stale: int) -> None:
    with world.fold().read() as conn:
        summary = read_dashboard(conn)
    assert sum(summary.stages_running.values()) == running
    assert summary.stale_running_stages == stale
    assert summary.workflows_running == 0


# -- rebuilding -----------------------------------------------------------------------------------
@given(parsers.parse("a generated log of {jobs:d} jobs"))
def generated(world: World, jobs: int) -> None:
    write_log(world.store.db, generate(jobs, seed=5))


@given("the read models are up to date")
def up_to_date(world: World) -> None:
    world.digests = table_digests(world.fold())


@when("the workflow run rows are lost and the runner starts")
def rows_lost(world: World) -> None:
    with world.store.db.write() as conn:
        conn.execute(sa.delete(workflow_run_projections))
    world.healed = ProjectionRunner(world.store.db, world.store.registry).prepare()
    assert world.healed == ["workflow_runs"]


@given("the runner has started and the read models are up to date")
def started_up_to_date(world: World) -> None:
    runner = ProjectionRunner(world.store.db, world.store.registry)
    assert runner.prepare() == []
    runner.catch_up()
    world.digests = table_digests(world.store.db)


@when(parsers.parse('{first:d} "{table}" rows and {second:d} "{other}" rows are deleted'))
def rows_deleted(world: World, first: int, table: str, second: int, other: str) -> None:
    with world.store.db.write() as conn:
        for name, n in ((table, first), (other, second)):
            t = metadata.tables[name]
            keys = list(t.primary_key.columns)
            doomed = conn.execute(sa.select(*keys).order_by(*keys).limit(n)).all()
            assert len(doomed) == n
            for row in doomed:
                conn.execute(sa.delete(t).where(*(k == v for k, v in zip(keys, row, strict=True))))


@then(parsers.parse('the projection check finds "{names}" short of rows'))
def check_finds(world: World, names: str) -> None:
    findings = verify_projections(world.store.db, OPERATIONS, watermark=OPERATIONS_WATERMARK)
    assert sorted({f.projection for f in findings}) == [n.strip() for n in names.split(",")], findings
    assert all(f.reason == "row_count" and (f.found or 0) < (f.expected or 0) for f in findings), findings


@when("the runner starts again")
def starts_again(world: World) -> None:
    world.healed = ProjectionRunner(world.store.db, world.store.registry).prepare()


@then(parsers.parse('the runner rebuilt "{names}"'))
def runner_rebuilt(world: World, names: str) -> None:
    assert sorted(world.healed) == [n.strip() for n in names.split(",")]


@when(parsers.parse('a rebuild of "{name}" is killed after filling its shadow tables'))
def killed_rebuild(world: World, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def killed(*_: object, **__: object) -> None:
        raise KeyboardInterrupt  # the process dies before the swap transaction

    monkeypatch.setattr(importlib.import_module("jobctrl.projections.rebuild"), "copy_table", killed)
    with pytest.raises(KeyboardInterrupt):
        rebuild(world.store.db, world.store.registry, [name])
    monkeypatch.undo()


@then(parsers.parse('projections status lists "{table}" as left over'))
def status_lists(world: World, table: str) -> None:
    assert read_status(world.store.db).leftover_shadows == [table]


@then("projections status lists no leftover tables")
def status_lists_none(world: World) -> None:
    assert read_status(world.store.db).leftover_shadows == []


@when("the read models are rebuilt")
def rebuilt(world: World) -> None:
    rebuild(world.store.db, world.store.registry, batch_size=7)


@then("every read-model table is identical to before")
def identical(world: World) -> None:
    assert table_digests(world.store.db) == world.digests


# -- job, apply and contact views -----------------------------------------------------------------
@given(parsers.parse('job "{job}" was discovered at "{employer}" with title "{title}"'))
def job_discovered(world: World, job: str, employer: str, title: str) -> None:
    world.append(
        JobDiscovered(
            job_id=job,
            posting_url=f"https://jobs.example/{job}",
            source="greenhouse:acme",
            employer=employer,
            metadata={"title": title, "salary": 5},
            discovered_at=AT,
        )
    )


@given(parsers.parse('job "{job}" was enriched with a long description'))
def job_enriched(world: World, job: str) -> None:
    world.append(
        JobEnriched(
            job_id=job,
            full_description="Build pipelines.\n" * 200,
            application_url="https://a.example",
            extraction_tier="json_ld",
            enriched_at=AT,
        )
    )


@given(parsers.parse('job "{job}" was scored {score:d} in version {version:d}'))
@when(parsers.parse('job "{job}" was scored {score:d} in version {version:d}'))
def job_scored(world: World, job: str, score: int, version: int) -> None:
    world.append(
        JobScored(
            job_id=job,
            fit_score=float(score),
            breakdown={"requirements": []},
            keywords=["sql"],
            version=version,
            scored_at=AT,
        )
    )


@then(parsers.parse('the list row of "{job}" shows "{title}" at "{employer}" scored {score:d}'))
def list_row(world: World, job: str, title: str, employer: str, score: int) -> None:
    t = job_list_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.job_id == job)).one()
    assert (row.title, row.employer, row.fit_score) == (title, employer, float(score))


@then(parsers.parse('the description preview of "{job}" is at most {limit:d} characters'))
def preview(world: World, job: str, limit: int) -> None:
    t = job_list_projections
    with world.fold().read() as conn:
        text = conn.execute(sa.select(t.c.description_preview).where(t.c.job_id == job)).scalar_one()
    assert 0 < len(text) <= limit and "\n" not in text


@given(parsers.parse('apply run "{run}" for job "{job}" started'))
def apply_started(world: World, run: str, job: str) -> None:
    world.append(
        ApplyRunStarted(job_id=job, run_id=run, worker_id="w1", model="local", dry_run=False, started_at=AT)
    )


@given(parsers.parse('apply run "{run}" recorded an email candidate for "{recipient}"'))
def apply_candidate(world: World, run: str, recipient: str) -> None:
    world.append(
        EmailApplicationCandidateRecorded(
            run_id=run,
            recipient=recipient,
            subject="Application",
            body="Dear team",
            attachment_artifact_id="a1",
            attachment_name="cv.pdf",
        )
    )


@given(parsers.parse('apply run "{run}" submitted the application'))
def apply_submitted(world: World, run: str) -> None:
    world.append(ApplicationSubmitted(job_id="job-1", run_id=run, applied_at=AT, verification_confidence=0.9))


@when(parsers.parse('apply run "{run}" failed'))
def apply_failed(world: World, run: str) -> None:
    world.append(
        ApplicationFailed(job_id="job-1", run_id=run, result={"code": "late_failure"}, attempt_number=1)
    )


@then(parsers.parse('apply run "{run}" is "{status}" with an email candidate'))
def apply_status(world: World, run: str, status: str) -> None:
    t = apply_run_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.run_id == run)).one()
    assert (row.status, row.email_candidate) == (status, True)


@then(parsers.parse('no read model holds "{value}"'))
def nowhere(world: World, value: str) -> None:
    db = world.fold()
    with db.read() as conn:
        for projection in OPERATIONS:
            for table in projection.tables:
                assert value not in str(conn.execute(sa.select(table.table)).all())


@given(parsers.parse('contact "{contact}" was created at "{employer}"'))
def contact_created(world: World, contact: str, employer: str) -> None:
    world.append(
        ContactCreated(contact_id=contact, employer=employer, job_id=None, role="recruiter", created_at=AT)
    )


@given(parsers.parse('contact "{contact}" was deleted'))
@when(parsers.parse('contact "{contact}" is deleted'))
def contact_deleted(world: World, contact: str) -> None:
    world.fold()  # the row exists first, then the deletion removes it
    world.append(ContactDeleted(contact_id=contact, reason="user_request", deleted_at=AT))


@then(parsers.parse('there is no contact row for "{contact}"'))
def no_contact(world: World, contact: str) -> None:
    t = contact_projections
    with world.fold().read() as conn:
        assert conn.execute(sa.select(t).where(t.c.contact_id == contact)).first() is None
