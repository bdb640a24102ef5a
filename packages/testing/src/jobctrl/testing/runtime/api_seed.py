"""Seeding helpers for API tests and scenarios: real events through the real services, then the real
projection runner.  Nothing here writes a read-model row directly."""

from __future__ import annotations

from datetime import UTC, datetime

from jobctrl.activity_contracts.contracts import PipelineStepChange
from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore
from jobctrl.materials.events import CoverLetterGenerated, PdfRendered, ResumeApproved
from jobctrl.orchestration import (
    change_job_stages,
    record_pipeline_steps,
    record_workflow_outcome,
    record_workflow_started,
)
from jobctrl.orchestration.domain.stages.limits import OWNED_STAGES
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.events import Stage, StepKind
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.runtime.api.operations.inventory import database_identity, expected_app_dir
from jobctrl.runtime.telemetry.heartbeat import RuntimeIdentity, create_table, write_heartbeat
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.scoring.events import JobScored

AT = "2026-03-01T00:00:00.000Z"


def _now() -> datetime:
    return datetime(2026, 3, 1, tzinfo=UTC)


def discover_job(
    store: EventStore,
    job_id: str,
    *,
    employer: str = "Acme",
    title: str = "Engineer",
    apply_url: str | None = None,
) -> None:
    metadata: dict[str, str] = {"title": title}
    if apply_url is not None:
        metadata["applyUrl"] = apply_url
    event = JobDiscovered(
        job_id=job_id,
        posting_url=f"https://jobs.example/{job_id}",
        source="sample",
        employer=employer,
        metadata=metadata,
        discovered_at=AT,
    )
    store.append(f"discovery-{job_id}", None, [NewEvent.of(event, occurred_at=_now())])


def score_job(store: EventStore, job_id: str, score: float) -> None:
    event = JobScored(
        job_id=job_id, fit_score=score, breakdown={}, keywords=["python"], version=1, scored_at=AT
    )
    store.append(f"scoring-{job_id}", None, [NewEvent.of(event, occurred_at=_now())])


def prepare_materials(
    store: EventStore, job_id: str, artifacts: ArtifactStore | None = None
) -> tuple[str, str]:
    """Materials generation 1 with both PDFs rendered, as the materials context records them; with
    ``artifacts`` the PDF bytes are stored too.  Returns (resume PDF id, cover PDF id)."""
    resume_pdf, cover_pdf = f"{job_id}-resume-pdf", f"{job_id}-cover-pdf"
    events = [
        ResumeApproved(job_id=job_id, artifact_id=f"{job_id}-resume", generation=1, approved_at=AT),
        CoverLetterGenerated(job_id=job_id, artifact_id=f"{job_id}-cover", generated_at=AT),
        PdfRendered(job_id=job_id, artifact_type="resume", artifact_id=resume_pdf, rendered_at=AT),
        PdfRendered(job_id=job_id, artifact_type="cover_letter", artifact_id=cover_pdf, rendered_at=AT),
    ]
    store.append(f"materials-{job_id}", None, [NewEvent.of(e, occurred_at=_now()) for e in events])
    if artifacts is not None:
        artifacts.put(resume_pdf, ArtifactKind.RESUME_PDF, b"%PDF-1.4 resume of " + job_id.encode())
        artifacts.put(cover_pdf, ArtifactKind.COVER_LETTER_PDF, b"%PDF-1.4 cover of " + job_id.encode())
    return resume_pdf, cover_pdf


def fail_stage(store: EventStore, job_id: str, stage: Stage) -> None:
    """Start and fail ``stage`` once (owned stages carry a workflow owner, as the worker's writes do)."""
    owner = StageOwner(f"prep-{job_id}", "run-1", 1) if stage in OWNED_STAGES else None
    change_job_stages(store, job_id, lambda s: s.start(stage, at=AT, owner=owner), owner=owner)
    change_job_stages(
        store,
        job_id,
        lambda s: s.fail(
            stage, error_code="boom", error_message="failed", retryable=True, at=AT, owner=owner
        ),
        owner=owner,
    )


def start_run(
    store: EventStore, workflow_id: str, run_id: str, workflow_type: str = "DiscoverWorkflow"
) -> None:
    record_workflow_started(
        store, workflow_id=workflow_id, run_id=run_id, workflow_type=workflow_type, tenant_id="local",
        started_at=AT, input_summary={}, clock=FixedClock(_now()),
    )  # fmt: skip


def complete_run(
    store: EventStore, workflow_id: str, run_id: str, workflow_type: str = "DiscoverWorkflow"
) -> None:
    record_workflow_outcome(
        store, workflow_id=workflow_id, run_id=run_id, workflow_type=workflow_type, tenant_id="local",
        status="succeeded", started_at=AT, finished_at="2026-03-01T00:00:01.000Z", clock=FixedClock(_now()),
    )  # fmt: skip


def step(store: EventStore, workflow_id: str, run_id: str, kind: StepKind, *, done: bool) -> None:
    """One pipeline step of a Discover execution, running or completed."""
    ref = ExecutionRef(tenant_id="local", workflow_id=workflow_id, temporal_run_id=run_id)
    changes = [PipelineStepChange(kind, kind, "started", AT)]
    if done:
        changes.append(PipelineStepChange(kind, kind, "completed", AT, duration_ms=5))
    record_pipeline_steps(store, ref, changes, clock=FixedClock(_now()))


def beat(db: Database, now: datetime) -> None:
    """A heartbeat row of a worker of ``db`` (its runtime identity), written at ``now`` (fresh for 45 s)."""
    create_table(db)
    db_path = database_identity(db)
    identity = RuntimeIdentity.current(
        app_dir=expected_app_dir(db_path), db_path=db_path, task_queue="jobctrl-default", slots=4, now=now
    )
    write_heartbeat(db, identity, RuntimeTelemetry(), now, None)


def project(db: Database) -> int:
    """Bring every read model up to the log head (the real runner, one catch-up)."""
    runner = ProjectionRunner(db, registry())
    runner.prepare()
    return runner.catch_up()


__all__ = [
    "AT",
    "beat",
    "complete_run",
    "discover_job",
    "fail_stage",
    "prepare_materials",
    "project",
    "score_job",
    "start_run",
    "step",
]
