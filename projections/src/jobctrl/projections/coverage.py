"""Which projections exist, and which registered event types are deliberately not projected.

Every registered event type must either be folded by a projection here or be listed in
``NOT_PROJECTED`` with a reason (the every-event-has-handler rule, checked by a test).  A new read
model is a new module under ``read_models/`` whose ``PROJECTION`` is added to ``OPERATIONS``.
"""

from __future__ import annotations

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.projections.model import Projection
from jobctrl.projections.read_models import (
    applications,
    apply_runs,
    contacts,
    dashboard,
    discovery_executions,
    discovery_runs,
    job_detail,
    job_list,
    outreach,
    pipeline_steps,
    profiles,
    scoring_policies,
    source_quality,
    stage_states,
    workflow_run_history,
    workflow_runs,
)

# Folded under the shared ``operations`` watermark, in this order within a batch.
OPERATIONS: tuple[Projection, ...] = (
    workflow_runs.PROJECTION,
    workflow_run_history.PROJECTION,
    pipeline_steps.PROJECTION,
    stage_states.PROJECTION,
    dashboard.PROJECTION,
    job_list.PROJECTION,
    job_detail.PROJECTION,
    apply_runs.PROJECTION,
    applications.PROJECTION,
    contacts.CONTACTS_PROJECTION,
    contacts.TASKS_PROJECTION,
    outreach.PROJECTION,
    discovery_executions.PROJECTION,
    discovery_runs.PROJECTION,
    source_quality.PROJECTION,
    profiles.PROJECTION,
    scoring_policies.PROJECTION,
)

_LATER = "its context's read model ({}) is not built yet; it lands with that context's issue"
_JOB_VIEWS = _LATER.format("job_list/job_detail_projections")
_SOURCES = (
    "a candidate source location is not a source yet; source_quality_projections starts at registration"
)
_APPLY = _LATER.format("apply review / outcome read models")
_MATERIALS = _LATER.format("artifact projections")
_NO_VIEW = "an audit fact no read model shows; it stays in job_events"
_PROFILE = (
    "a change notice for the profile outbox; every accepted save also records ProfileRevisionSaved,"
    " which feeds profile_version_projections"
)

_USER_SOURCES = (
    "a user's source configuration: the sources list and Discover's catalog read the source registry"
    " streams themselves (what the next run crawls, with no projection lag: ADR 0150); the source's"
    " quality row comes from its registry, observation and run events"
)

NOT_PROJECTED: dict[str, str] = {
    "SourceConfigured": _USER_SOURCES,
    "SourceRemoved": _USER_SOURCES,
    "SourceCrawlRecorded": (
        "a source's health history, read by its registry aggregate for the quarantine and disable"
        " recommendations (ADR 0152); their outcome, SourceStateChanged, and the run's own facts feed"
        " source_quality (folding it too would count a fully failed run twice)"
    ),
    "BroadBoardUnitCompleted": (
        "a broad-board search unit's completion within one run, read by the broad-board crawl to resume"
        " at the next unit (ADR 0285); its postings' own observations feed the read models"
    ),
    "JobImportQueued": (
        "the import queue a Discover plan reads to take up URL-imported jobs (ADR 0309); the job's own"
        " JobDiscovered and its execution membership feed the read models"
    ),
    "DuplicateJobLinked": _JOB_VIEWS,
    "DuplicateJobLinkRejected": _JOB_VIEWS,
    "SourceLocationCandidateDiscovered": _SOURCES,
    "SourceLocationCandidatePromoted": _SOURCES,
    "PostingContentSnapshotFailed": _JOB_VIEWS,
    "ContentDuplicateCandidateDetected": _JOB_VIEWS,
    "CompensationFactsUpdated": _JOB_VIEWS,
    "ScoreRescoreRequested": _JOB_VIEWS,
    "EmployerAnalyzed": _JOB_VIEWS,
    "MaterialsExhausted": _MATERIALS,
    "BulletProvenanceRecorded": _MATERIALS,
    "InterviewPrepGenerated": _MATERIALS,
    "InterviewPrepFailed": _MATERIALS,
    "TailorRetailorRequested": _MATERIALS,
    "TailoredArtifactsSuppressed": _MATERIALS,
    "ResumeTemplateVersionSaved": _MATERIALS,
    "ResumeTemplateDefaultChanged": _MATERIALS,
    "JobResumeTemplateAssigned": _MATERIALS,
    "ResumeTemplateRefreshCompleted": _MATERIALS,
    "ResumeTemplateRefreshFailed": _MATERIALS,
    "PreparationWorkItemQueued": _LATER.format("preparation work-item read model"),
    "PreparationWorkItemStarted": _LATER.format("preparation work-item read model"),
    "PreparationWorkItemCompleted": _LATER.format("preparation work-item read model"),
    "PreparationWorkItemFailed": _LATER.format("preparation work-item read model"),
    "ApplicationEmailFeedbackIngested": _APPLY,
    "OutcomeSuggestionDecided": _APPLY,
    "RepeatApplicationOverrideGranted": (
        "consumed by the apply identity claim; the run row shows its use (repeat_override) through"
        " ApplicationIdentityClaimed, and the grant itself holds only a digest no view shows"
    ),
    "ProfileUpdated": _PROFILE,
    "ProfileImported": _PROFILE,
    "TailoringPolicyUpdated": _MATERIALS,
    "DigestReviewed": _NO_VIEW + " (the digest acknowledgement is read from its aggregate)",
}


class UnknownProjection(JobCtrlError):
    code = "unknown_projection"
    retryable = False


def projection_named(name: str, projections: tuple[Projection, ...] = OPERATIONS) -> Projection:
    for projection in projections:
        if projection.name == name:
            return projection
    known = ", ".join(p.name for p in projections)
    raise UnknownProjection(f"no projection named {name[:60]!r} (known: {known})")


def projected_event_types(projections: tuple[Projection, ...] = OPERATIONS) -> frozenset[str]:
    return frozenset().union(*(p.event_types for p in projections))
