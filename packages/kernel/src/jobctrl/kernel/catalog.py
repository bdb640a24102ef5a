"""The canonical order of the event registry.

The first 100 names are the reference application's registry, in its order, so that a reference
database's job_events can be imported and checked for parity.  New names are only ever appended.
"""

from __future__ import annotations

REFERENCE_EVENT_NAMES: tuple[str, ...] = (
    "JobDiscovered",
    "JobUpdated",
    "JobDeleted",
    "JobRestored",
    "JobHidden",
    "JobUnhidden",
    "JobSourceObserved",
    "DiscoveryRunStarted",
    "DiscoveryRunCompleted",
    "DiscoveryRunFailed",
    "CanonicalJobIdentityResolved",
    "DuplicateJobLinked",
    "DuplicateJobLinkRejected",
    "DiscoveryFeedbackRecorded",
    "SourceLocationCandidateDiscovered",
    "SourceLocationCandidatePromoted",
    "SourceRegistryEntryCreated",
    "SourceRegistryEntryUpdated",
    "SourceStateChanged",
    "JobEnriched",
    "EnrichmentFailed",
    "PostingContentSnapshotCaptured",
    "PostingContentSnapshotFailed",
    "JobActiveStateChanged",
    "ContentDuplicateCandidateDetected",
    "JobScored",
    "ScoreCorrected",
    "ScoreRescoreRequested",
    "ResumeApproved",
    "ResumeFailed",
    "CoverLetterGenerated",
    "PdfRendered",
    "MaterialsExhausted",
    "EmployerAnalyzed",
    "BulletProvenanceRecorded",
    "InterviewPrepGenerated",
    "InterviewPrepFailed",
    "TailorRetailorRequested",
    "TailoredArtifactsSuppressed",
    "ResumeTemplateVersionSaved",
    "ResumeTemplateDefaultChanged",
    "JobResumeTemplateAssigned",
    "ResumeTemplateRefreshCompleted",
    "ResumeTemplateRefreshFailed",
    "PreparationWorkItemQueued",
    "PreparationWorkItemStarted",
    "PreparationWorkItemCompleted",
    "PreparationWorkItemFailed",
    "ApplyRunStarted",
    "ApplySubmitIntended",
    "ApplyRunEventRecorded",
    "EmailApplicationCandidateRecorded",
    "ApplicationEmailFeedbackIngested",
    "ApplicationSubmitted",
    "ApplicationFailed",
    "ApplyReviewDecisionRecorded",
    "ApplicationOutcomeRecorded",
    "OutcomeSuggestionDecided",
    "StageStarted",
    "StageCompleted",
    "StageFailed",
    "StageExhausted",
    "StageReset",
    "StageBlocked",
    "StageSkipped",
    "StageCanceled",
    "ProfileUpdated",
    "ProfileImported",
    "TailoringPolicyUpdated",
    "CompensationFactsUpdated",
    "PipelineStepQueued",
    "PipelineStepStarted",
    "PipelineStepCompleted",
    "PipelineStepFailed",
    "DigestReviewed",
    "WorkflowStarted",
    "WorkflowCancellationRequested",
    "WorkflowCompleted",
    "WorkflowFailed",
    "WorkflowCanceled",
    "WorkflowTimedOut",
    "WorkflowTerminated",
    "ContactCreated",
    "ContactUpdated",
    "ContactAttributeRecorded",
    "ContactDeleted",
    "WarmIntroIdentified",
    "ContactResearchTaskStarted",
    "ContactCandidateProposed",
    "ContactResearchTaskNeedsReview",
    "ContactResearchTaskCompleted",
    "ContactResearchTaskFailed",
    "OutreachDraftGenerated",
    "OutreachDraftRevised",
    "OutreachDraftApproved",
    "OutreachDraftRejected",
    "OutreachSendLogged",
    "FollowUpScheduled",
    "FollowUpCompleted",
    "FollowUpDismissed",
)

# Names JobCtrl adds after the reference entries, in the order they were added.  Append only.
APPENDED_EVENT_NAMES: tuple[str, ...] = (
    # contact (supervised research audit)
    "ContactResearchSourceAttempted",
    # orchestration (ADR 0025, 0028)
    "StageEnqueued",
    "StageUnblocked",
    "StageMarkedStale",
    "ProfileRevisionSaved",
    "ProfileContinuationQueued",
    "ProfileContinuationDispatchIntended",
    "ProfileContinuationCoalesced",
    # scoring (ADR 0020)
    "ScoringPolicyUpdated",
    # apply (ADR 0035)
    "ApplySubmissionBlocked",
    "ApplicationIdentityClaimed",
    "RepeatApplicationOverrideGranted",
    # discovery (ADR 0018)
    "DiscoveryRunProgressRecorded",
    "DiscoveryExecutionMemberLinked",
    "DiscoveryExecutionMemberPromoted",
    "DiscoveryExecutionWorkPlanRecorded",
    "DiscoveryExecutionMembershipClosed",
    # orchestration: the profile continuation's terminal fact (ADR 0077)
    "ProfileContinuationClosed",
    # discovery: sources added and removed by the user (ADR 0150)
    "SourceConfigured",
    "SourceRemoved",
    # discovery: each source's outcome per run, its health history (ADR 0152)
    "SourceCrawlRecorded",
    # contact: a proposed person the user rejected in review (ADR 0210)
    "ContactCandidateRejected",
    # apply: an application's follow-up put off by the user (ADR 0213)
    "ApplicationFollowUpSnoozed",
    # contact: a reply to an outreach send, recorded by hand (ADR 0275)
    "OutreachReplyRecorded",
    # discovery: a broad-board search unit done in a run, so a resumed run skips it (ADR 0285)
    "BroadBoardUnitCompleted",
    # discovery: a URL-imported job queued for the next Discover execution (ADR 0309)
    "JobImportQueued",
)

CANONICAL_EVENT_NAMES: tuple[str, ...] = REFERENCE_EVENT_NAMES + APPENDED_EVENT_NAMES

assert len(REFERENCE_EVENT_NAMES) == 100 and len(set(CANONICAL_EVENT_NAMES)) == len(CANONICAL_EVENT_NAMES)
