"""Dataclass inputs and results exchanged between workflows and activities (shared: the workflows in
orchestration and the activities in every context import them from here; contexts cannot import each other).

Workflows reference activities by *name* and pass only these dataclasses, so a workflow module never
imports a context's internals and an activity implementation can be swapped at the worker without
touching a workflow.  Every field is JSON-friendly (Temporal's default converter).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from jobctrl.kernel.execution import ExecutionRef

PreparationStep = Literal["score", "tailor", "cover", "pdf"]
StepStatus = Literal["done", "skipped", "not_eligible"]
Cohort = Literal["observed_this_run", "existing_backlog"]
OutcomeStatus = Literal["succeeded", "failed", "canceled"]
StepTransition = Literal["queued", "started", "completed", "failed"]
#: The one step-kind vocabulary: activity payloads and the ``PipelineStep*`` events both use it.
StepKind = Literal[
    "source_planning", "source_family", "enrichment_pass", "preparation_fanout", "existing_backlog_sweep",
    "pdf_render",
]  # fmt: skip


# -- lifecycle ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WorkflowStartedInput:
    workflow_id: str
    temporal_run_id: str
    workflow_type: str
    tenant_id: str
    started_at: str
    input_summary: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WorkflowOutcomeInput:
    workflow_id: str
    temporal_run_id: str
    workflow_type: str
    tenant_id: str
    status: OutcomeStatus
    started_at: str
    finished_at: str
    error_code: str | None = None
    error_message: str | None = None
    retryable: bool = False


@dataclass(frozen=True)
class PipelineStepChange:
    step_kind: StepKind
    item_key: str
    transition: StepTransition
    at: str
    item_count: int | None = None
    error_code: str | None = None
    retryable: bool = False
    duration_ms: int | None = None


@dataclass(frozen=True)
class PipelineStepsInput:
    execution: ExecutionRef
    changes: list[PipelineStepChange]


# -- spend ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SpendCheckInput:
    tenant_id: str
    workflow_id: str
    workflow_type: str


@dataclass(frozen=True)
class SpendCheckResult:
    spent_usd: float
    budget_usd: float


# -- discovery ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ProgressTick:
    """Where the monotonic spine stands when an activity runs; ``total == 0`` means progress-silent."""

    done: int
    total: int


@dataclass(frozen=True)
class PlanSourcesInput:
    execution: ExecutionRef
    source_ids: list[str] = field(default_factory=list)
    #: Jobs to prepare in this execution (a URL import, ADR 0286); with no ``source_ids``, no source
    #: is crawled.
    job_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PlanSourcesResult:
    families: list[str]


@dataclass(frozen=True)
class SourceFamilyInput:
    execution: ExecutionRef
    family: str
    progress: ProgressTick
    limit: int = 0
    #: The run's chosen sources (empty: every runnable one), as planned: a family crawls only these
    #: (ADR 0295).  Defaulted, so the input of a run started before the field decodes unchanged.
    source_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SourceFamilyResult:
    family: str
    observed_jobs: int
    new_jobs: int
    # The rest of the family's counts, for the run's DiscoveryRunCompleted (0 in older histories).
    total: int = 0
    existing_jobs: int = 0
    duplicate_jobs: int = 0
    rejected_duplicates: int = 0


@dataclass(frozen=True)
class FamilyOutcome:
    """One family's end: its counts when it succeeded, else its error code."""

    family: str
    result: SourceFamilyResult | None = None
    error_code: str | None = None
    retryable: bool = False


@dataclass(frozen=True)
class FinishDiscoveryRunInput:
    execution: ExecutionRef
    families: list[FamilyOutcome]


@dataclass(frozen=True)
class ReportDiscoveryProgressInput:
    """The workflow's own count of finished spine steps (families, then enrichment, then fan-out):
    the DiscoveryRun keeps the highest report, so retries and replays cannot move it back."""

    execution: ExecutionRef
    progress: ProgressTick


@dataclass(frozen=True)
class InterruptDiscoveryRunInput:
    """The Discover run failed or was canceled before its terminal fan-out: close its DiscoveryRun
    with ``reason`` (ADR 0079; a run already finished, or never started, records nothing) and its
    execution's membership with ``interrupted_<reason>`` (ADR 0083; a closed one records nothing)."""

    execution: ExecutionRef
    reason: str
    retryable: bool = False


@dataclass(frozen=True)
class EnrichmentInput:
    execution: ExecutionRef
    progress: ProgressTick


@dataclass(frozen=True)
class EnrichmentResult:
    enriched_jobs: int


@dataclass(frozen=True)
class FanoutInput:
    execution: ExecutionRef
    cohort: Cohort
    progress: ProgressTick
    task_queue: str = ""
    heartbeat_timeout_s: float = 0.0  # handed to each JobPreparationWorkflow (0: the default)


@dataclass(frozen=True)
class FanoutResult:
    started_workflows: int
    not_eligible: int
    already_prepared: int = 0


# -- preparation ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PreparationStepInput:
    tenant_id: str
    job_id: str
    step: PreparationStep
    target_version: int | None
    idempotency_key: str


@dataclass(frozen=True)
class PreparationStepResult:
    status: StepStatus
    reason: str | None = None


@dataclass(frozen=True)
class PreparationCheckpointInput:
    tenant_id: str
    job_id: str
    idempotency_key: str


@dataclass(frozen=True)
class PreparationCheckpoint:
    """Steps already completed under this idempotency key (a rerun resumes after them)."""

    completed_steps: list[PreparationStep] = field(default_factory=list)


@dataclass(frozen=True)
class PreparationOpenInput:
    """A preparation's opening as one local activity (ADR 0391): the started record, the spend gate
    and the checkpoint read, in that order, with each one's own input."""

    started: WorkflowStartedInput
    spend: SpendCheckInput
    checkpoint: PreparationCheckpointInput


@dataclass(frozen=True)
class PreparationOpened:
    spend: SpendCheckResult
    checkpoint: PreparationCheckpoint


# -- apply and contact ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ApplyActivityInput:
    tenant_id: str
    job_id: str | None
    dry_run: bool
    continuous: bool
    auto_apply_loop: bool
    batch_limit: int


@dataclass(frozen=True)
class ApplyActivityResult:
    processed: int
    submitted: int = 0


@dataclass(frozen=True)
class ContactResearchActivityInput:
    tenant_id: str
    task_id: str
    employer: str | None
    job_id: str | None
    sources: list[str] = field(default_factory=list)
    llm_model: str = "default"


@dataclass(frozen=True)
class ContactResearchActivityResult:
    candidates: int
