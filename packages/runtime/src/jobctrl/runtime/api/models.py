"""Typed request and response bodies of the HTTP API (camelCase on the wire).

Request bodies refuse unknown fields: a typo must be a 422, never silently ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from jobctrl.kernel.stages import Stage
from jobctrl.kernel.text import unstorable_text  # one check for every intake (``Request`` below)
from jobctrl.runtime.api.discover_phase import Phase

#: An id on the wire (a job, run, task, thread, artifact...): every route and body checks this one.
ID_PATTERN = r"^[A-Za-z0-9_.:\-]{1,200}$"
SafeId = Annotated[str, StringConstraints(pattern=ID_PATTERN)]


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Request(BaseModel):
    """A request body: unknown fields refused, and no string anywhere may hold a NUL or a lone
    surrogate (422 naming the field)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        found = unstorable_text(value)
        if found is not None:
            raise ValueError(f"{found}: a NUL or a lone surrogate cannot be stored")
        return value


class FieldProblem(BaseModel):
    path: str
    reason: str


class ErrorDetail(BaseModel):
    code: str
    message: str
    fields: list[FieldProblem] | None = None  # each invalid field (e.g. of a profile save)


class ErrorBody(BaseModel):
    error: ErrorDetail


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's OpenAPI ``responses`` for its refusals: each of these statuses answers an ``ErrorBody``."""
    return {status: {"model": ErrorBody} for status in statuses}


# -- jobs -------------------------------------------------------------------------------------------
class JobSummary(Wire):
    job_id: str
    title: str | None
    employer: str
    source: str
    location: str | None
    fit_score: float | None
    fit_band: str | None
    keywords: list[str]
    active_state: str
    hidden: bool
    current_stage: Stage | None
    current_stage_state: str | None
    discovered_at: str | None
    updated_at: str | None


class JobPage(Wire):
    items: list[JobSummary]
    total: int
    limit: int
    offset: int


class StageStateView(Wire):
    stage: Stage
    state: str
    attempts: int
    max_attempts: int | None
    error_code: str | None
    next_action: str
    blocked_by: list[str]
    updated_at: str | None


class JobDetail(Wire):
    job: JobSummary
    posting_url: str | None
    canonical_url: str | None
    description: str | None
    application_url: str | None
    score_version: int | None
    score_confidence: str | None
    stages: list[StageStateView]


# -- workflow runs ----------------------------------------------------------------------------------
class WorkflowRunSummary(Wire):
    workflow_id: str
    workflow_type: str
    run_id: str | None
    status: str
    phase: Phase | None
    cancelable: bool
    cancel_requested_at: str | None
    cancel_requested_by: str | None  # who asked for the cancel (the request's requestedBy)
    started_at: str | None
    finished_at: str | None
    error_code: str | None


class WorkflowRunPage(Wire):
    items: list[WorkflowRunSummary]
    total: int
    limit: int
    offset: int


class TimelineItem(Wire):
    kind: str
    position: int
    run_id: str | None = None
    status: str | None = None
    at: str | None = None
    error_code: str | None = None


class WorkflowRunDetail(WorkflowRunSummary):
    duration_ms: int | None
    error_message: str | None
    retryable: bool | None
    recovered: bool
    input_summary: dict[str, JsonValue]
    timeline: list[TimelineItem]
    timeline_total: int


class CancelAccepted(Wire):
    workflow_id: str
    run_id: str | None
    cancel_recorded: bool


# -- actions ----------------------------------------------------------------------------------------
class RetryStageRequest(Request):
    stage: Stage
    run_after: bool = False


class RetryStageResult(Wire):
    job_id: str
    stage: Stage
    state: str
    run_after: bool
    workflow_id: str | None


class DiscoveryRunRequest(Request):
    source_ids: Annotated[list[SafeId], Field(max_length=100)] = []
    limit: Annotated[int, Field(ge=0, le=100_000)] = 0
    min_score: Annotated[int, Field(ge=0, le=10)] = 7


class StartedRun(Wire):
    workflow_id: str
    run_id: str


class ReviewDecisionRequest(Request):
    decision: Literal["approve_submit", "approve_dry_run", "defer", "decline", "reset"]
    materials_generation: Annotated[int, Field(ge=0)] | None = None
    profile_version: Annotated[int, Field(ge=0)] | None = None
    application_url: Annotated[str, Field(max_length=2000)] | None = None
    partial_override_run_id: SafeId | None = None
    email_recipient: Annotated[str, Field(max_length=320)] | None = None
    email_attachment_artifact_id: SafeId | None = None
    reason: Annotated[str, Field(max_length=2000)] | None = None


class ReviewDecisionResult(Wire):
    job_id: str
    decision_id: str
    decision: str
    workflow_id: str | None = None  # the ApplyWorkflow the approval started
    dry_run: bool | None = None
    gate: str | None = None  # an approve_submit that started nothing: the gate's refusal


# -- settings and profile ---------------------------------------------------------------------------
class SettingsView(Wire):
    auto_apply: bool
    apply_approval_required: bool
    min_fit_score: float
    apply_concurrency: int
    pipeline_internal_concurrency: int
    worker_activity_slots: int
    daily_budget_usd: float
    tailoring_judge_min_score: float
    apply_max_budget_usd: float
    apply_timeout_seconds: int
    discovery_schedule_enabled: bool
    discovery_schedule_cron: str
    max_parallel_families: int
    crawl_user_agent: str
    task_queue: str
    smtp_host: str
    smtp_port: int
    smtp_starttls: bool
    smtp_username: str
    smtp_from: str
    smtp_password_env: str
    browser_submit_allowlist: list[str]
    follow_up_days: int


class SettingsPatch(Request):
    """Every field optional; ranges are checked by ``OrchestrationSettings`` (the one source of truth).

    Strict types: ``"yes"`` is not a boolean and ``"5"`` is not a number (a safety switch such as
    ``autoApply`` must never be turned on by coercion).  ``null`` unsets a saved key: it returns to
    the configuration's value, else the default (ADR 0272)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", strict=True)

    auto_apply: bool | None = None
    apply_approval_required: bool | None = None
    min_fit_score: float | None = None
    apply_concurrency: int | None = None
    pipeline_internal_concurrency: int | None = None
    worker_activity_slots: int | None = None
    daily_budget_usd: float | None = None
    tailoring_judge_min_score: float | None = None
    apply_max_budget_usd: float | None = None
    apply_timeout_seconds: int | None = None
    discovery_schedule_enabled: bool | None = None
    discovery_schedule_cron: str | None = None
    max_parallel_families: int | None = None
    crawl_user_agent: str | None = None
    task_queue: str | None = None
    smtp_host: str | None = None
    smtp_port: int | None = None
    smtp_starttls: bool | None = None
    smtp_username: str | None = None
    smtp_from: str | None = None
    smtp_password_env: str | None = None
    browser_submit_allowlist: list[str] | None = None
    follow_up_days: int | None = None


class ProfileView(Wire):
    profile_version: int
    content: dict[str, JsonValue]


class ProfilePatch(Request):
    """Whole sections replace the saved ones; a ``null`` section removes it.  The merged document is
    validated before anything is saved (422 listing each invalid field path)."""

    contact: JsonValue = None
    summary: JsonValue = None
    experience: JsonValue = None
    education: JsonValue = None
    skills: JsonValue = None
    projects: JsonValue = None
    certifications: JsonValue = None
    languages: JsonValue = None
    preferences: JsonValue = None
    targets: JsonValue = None
    work_authorization: JsonValue = None
    style: JsonValue = None
    template: JsonValue = None


class ProfileSaved(ProfileView):
    outcome: Literal["no_change", "presentation_only", "updated"]
