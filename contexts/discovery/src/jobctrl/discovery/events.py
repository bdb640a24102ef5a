"""Published events of the Discovery context (importable without the aggregates)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.registry import Upcaster

AtsKind = Literal["workday", "greenhouse", "lever", "ashby", "other"]
SourceKind = Literal[
    "ats_api",
    "employer_careers_page",
    "official_api",
    "licensed_feed",
    "niche_board",
    "broad_board",
    "smart_extract",
    "user_mediated_capture",
]
SourceState = Literal["active", "experimental", "quarantined", "disabled"]
FeedbackKind = Literal[
    "saved",
    "applied",
    "dismissed",
    "stale",
    "duplicate",
    "wrong_company",
    "wrong_location",
    "bad_source",
    "useful",
    "irrelevant",
]


class JobDiscovered(DomainEvent, frozen=True):
    event_type = "JobDiscovered"
    job_id: str
    posting_url: str
    source: str
    employer: str
    metadata: dict[str, Any]
    discovered_at: str


class JobUpdated(DomainEvent, frozen=True):
    event_type = "JobUpdated"
    job_id: str
    changed_fields: dict[str, Any]


class JobDeleted(DomainEvent, frozen=True):
    event_type = "JobDeleted"
    job_id: str
    reason: str
    deleted_at: str


class JobRestored(DomainEvent, frozen=True):
    event_type = "JobRestored"
    job_id: str
    restored_at: str


class JobHidden(DomainEvent, frozen=True):
    event_type = "JobHidden"
    job_id: str
    reason: str
    hidden_at: str


class JobUnhidden(DomainEvent, frozen=True):
    event_type = "JobUnhidden"
    job_id: str
    unhidden_at: str


class JobSourceObserved(DomainEvent, frozen=True):
    event_type = "JobSourceObserved"
    job_id: str
    source_observation_id: str
    source_id: str
    source_native_id: str
    observed_url: str
    run_id: str
    observed_at: str


class DiscoveryRunStarted(DomainEvent, frozen=True):
    event_type = "DiscoveryRunStarted"
    run_id: str
    source_ids: list[str]
    profile_snapshot_id: str | None
    started_at: str


class DiscoveryRunCounts(msgspec.Struct, frozen=True, rename="camel"):
    total: int
    new_jobs: int
    existing_jobs: int
    observed_jobs: int
    duplicate_jobs: int
    rejected_duplicates: int


class DiscoveryRunCompleted(DomainEvent, frozen=True):
    event_type = "DiscoveryRunCompleted"
    run_id: str
    counts: DiscoveryRunCounts
    error_classes: list[str]
    completed_at: str


class DiscoveryRunFailed(DomainEvent, frozen=True):
    event_type = "DiscoveryRunFailed"
    run_id: str
    source_id: str
    error_class: str
    retryable: bool
    failed_at: str


class CanonicalJobIdentityResolved(DomainEvent, frozen=True):
    event_type = "CanonicalJobIdentityResolved"
    job_id: str
    canonical_url: str
    ats_kind: AtsKind
    source_native_id: str
    confidence: float


class DuplicateJobLinked(DomainEvent, frozen=True):
    event_type = "DuplicateJobLinked"
    duplicate_link_id: str
    surviving_job_id: str
    superseded_job_or_observation_id: str
    reason: str
    confidence: float


class DuplicateJobLinkRejected(DomainEvent, frozen=True):
    event_type = "DuplicateJobLinkRejected"
    duplicate_link_id: str
    job_id: str
    candidate_posting_url: str
    reason: str
    rejected_at: str


class DiscoveryFeedbackRecorded(DomainEvent, frozen=True):
    event_type = "DiscoveryFeedbackRecorded"
    feedback_id: str
    job_id: str
    source_id: str | None
    kind: FeedbackKind
    recorded_at: str


class SourceLocationCandidateDiscovered(DomainEvent, frozen=True):
    event_type = "SourceLocationCandidateDiscovered"
    candidate_id: str
    candidate_url: str
    source_kind: SourceKind
    confidence: float
    evidence_ref: str
    discovered_at: str


class SourceLocationCandidatePromoted(DomainEvent, frozen=True):
    event_type = "SourceLocationCandidatePromoted"
    candidate_id: str
    source_id: str
    promoted_at: str


class SourceRegistryEntryCreated(DomainEvent, frozen=True):
    event_type = "SourceRegistryEntryCreated"
    source_id: str
    kind: SourceKind
    policy_id: str
    state: SourceState
    created_at: str


class SourceRegistryEntryUpdated(DomainEvent, frozen=True):
    event_type = "SourceRegistryEntryUpdated"
    source_id: str
    changed_fields: list[str]
    updated_at: str


class SourceStateChanged(DomainEvent, frozen=True):
    event_type = "SourceStateChanged"
    source_id: str
    from_state: SourceState
    to_state: SourceState
    reason: str
    changed_at: str


# -- appended by JobCtrl (not in the reference registry) -----------------------------------------
CohortKind = Literal["observed_this_run", "existing_backlog"]
WorkPlanState = Literal["pending", "planned", "not_eligible", "failed"]


class DiscoveryRunProgressRecorded(DomainEvent, frozen=True):
    """The run's progress spine advanced (total = source families + 2; never shrinks or goes back)."""

    event_type = "DiscoveryRunProgressRecorded"
    run_id: str
    completed: int
    total: int
    recorded_at: str


class DiscoveryExecutionMemberLinked(DomainEvent, frozen=True):
    event_type = "DiscoveryExecutionMemberLinked"
    execution: ExecutionRefPayload
    job_id: str
    cohort: CohortKind
    linked_at: str


class DiscoveryExecutionMemberPromoted(DomainEvent, frozen=True):
    """An existing_backlog member was observed by a source of this execution."""

    event_type = "DiscoveryExecutionMemberPromoted"
    execution: ExecutionRefPayload
    job_id: str
    promoted_at: str


class DiscoveryExecutionWorkPlanRecorded(DomainEvent, frozen=True):
    """A member's work plan: planned (steps + child workflow), not_eligible (bounded reason) or failed."""

    event_type = "DiscoveryExecutionWorkPlanRecorded"
    execution: ExecutionRefPayload
    job_id: str
    state: WorkPlanState
    required_steps: list[str]
    child_workflow_id: str | None
    reason_code: str | None
    recorded_at: str


class DiscoveryExecutionMembershipClosed(DomainEvent, frozen=True):
    """The membership is final.  v2 adds ``reason_code``: absent when the terminal preparation fan-out
    closed it, ``interrupted_<reason>`` when the Discover run ended before that (ADR 0083)."""

    event_type = "DiscoveryExecutionMembershipClosed"
    schema_version = 2
    execution: ExecutionRefPayload
    member_count: int
    closed_at: str
    reason_code: str | None = None


class SourceConfigured(DomainEvent, frozen=True):
    """A user added (or re-added) a source: which family crawls it and where (ADR 0150).  v2 adds a
    broad-board source's search (ADR 0285); v1 sources have none."""

    event_type = "SourceConfigured"
    schema_version = 2
    source_id: str
    family: str
    locator: str
    board: str
    employer: str
    base_url: str
    configured_at: str
    api_base: str | None = None
    title_filters: list[str] = msgspec.field(default_factory=list)
    location_filters: list[str] = msgspec.field(default_factory=list)
    # A broad-board search (``jobspy`` family, ADR 0285): keywords x locations x the sites in ``board``.
    keywords: list[str] = msgspec.field(default_factory=list)
    locations: list[str] = msgspec.field(default_factory=list)
    results_wanted: int | None = None
    hours_old: int | None = None


class SourceRemoved(DomainEvent, frozen=True):
    """A user removed a source: Discover no longer runs it and it is no longer listed (ADR 0150)."""

    event_type = "SourceRemoved"
    source_id: str
    removed_at: str


class SourceCrawlRecorded(DomainEvent, frozen=True):
    """How one source fared in one discovery run: its health history (ADR 0152)."""

    event_type = "SourceCrawlRecorded"
    source_id: str
    run_id: str
    succeeded: bool
    postings_seen: int
    duplicates: int
    recorded_at: str
    error_class: str | None = None


class BroadBoardUnitCompleted(DomainEvent, frozen=True):
    """One search unit (site x keyword x location) of a broad-board source finished in one run, its
    postings recorded (ADR 0285): a retried or resumed run skips it and keeps its jobs."""

    event_type = "BroadBoardUnitCompleted"
    source_id: str
    run_id: str
    unit_id: str
    site: str
    keyword: str
    location: str
    postings_seen: int
    job_ids: list[str]
    completed_at: str


class JobImportQueued(DomainEvent, frozen=True):
    """A job imported from a URL waits for the next Discover execution to take it up (ADR 0309).
    Written with the job's ``JobDiscovered``, on the one import-queue stream."""

    event_type = "JobImportQueued"
    job_id: str
    url: str
    queued_at: str


EVENTS: tuple[type[DomainEvent], ...] = (
    JobDiscovered,
    JobUpdated,
    JobDeleted,
    JobRestored,
    JobHidden,
    JobUnhidden,
    JobSourceObserved,
    DiscoveryRunStarted,
    DiscoveryRunCompleted,
    DiscoveryRunFailed,
    CanonicalJobIdentityResolved,
    DuplicateJobLinked,
    DuplicateJobLinkRejected,
    DiscoveryFeedbackRecorded,
    SourceLocationCandidateDiscovered,
    SourceLocationCandidatePromoted,
    SourceRegistryEntryCreated,
    SourceRegistryEntryUpdated,
    SourceStateChanged,
    DiscoveryRunProgressRecorded,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryExecutionMembershipClosed,
    SourceConfigured,
    SourceRemoved,
    SourceCrawlRecorded,
    BroadBoardUnitCompleted,
    JobImportQueued,
)


def _membership_closed_v1(payload: dict[str, Any]) -> dict[str, Any]:
    return payload  # v1 closes were all the terminal fan-out's: no reason


def _source_configured_v1(payload: dict[str, Any]) -> dict[str, Any]:
    return payload  # v1 sources are no broad boards: no search, the v2 fields' defaults


UPCASTERS: tuple[Upcaster, ...] = (
    Upcaster("DiscoveryExecutionMembershipClosed", 1, _membership_closed_v1),
    Upcaster("SourceConfigured", 1, _source_configured_v1),
)
