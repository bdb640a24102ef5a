"""The orchestration bounded context: workflow runs, pipeline steps, the stage machine, spend,
settings and the profile outbox, plus the Temporal workflows (``workflows``) and activities
(``activities``).

The public face, resolved lazily so importing this package (as every workflow module does, inside
Temporal's sandbox) imports nothing else:

* use cases — ``record_workflow_started``, ``record_workflow_outcome``, ``reconcile_workflow_run``,
  ``record_pipeline_steps``, ``settle_pipeline_steps``, ``request_workflow_cancellation``; the only
  writers of ``Workflow*`` and ``PipelineStep*`` events (ADR 0120);
* the discovery run (ADR 0180) — ``start_discovery_run``, ``report_discovery_progress``,
  ``finish_discovery_run``, ``interrupt_discovery_run``, ``close_orphaned_discovery_run`` and
  ``DiscoveryRunLog`` (the adapter of discovery's port onto them); the only writers of
  ``DiscoveryRun*`` events;
* domain — ``DiscoveryRun``, ``progress_total``, ``WorkflowRun``, ``DescribedStatus``,
  ``RunReconciled``, ``ExecutionSteps``, ``LIFECYCLE_TYPES``, ``NOT_FOUND``;
* preparation fan-out (ADR 0261) — ``fan_out_preparation`` over ``plan_preparation``
  (``PreparationTarget`` -> ``WorkPlan``), behind the ports ``StartPreparation`` and
  ``RecordWorkPlans``;
* the profile outbox (ADR 0262) — ``drain_profile_outbox`` (``DrainReport``, ``OUTCOME_OF_STATUS``)
  behind the ``ContinuationControl`` port;
* preparation cohorts (ADR 0263) — ``derive_preparation_targets`` (which jobs each cohort prepares)
  over the ``PreparationCandidates`` port;
* the stage machine — ``load_job_stages``, ``change_job_stages`` (one unit of transitions, saved
  with compare-and-swap), ``begin_stage``, ``complete_stage``, ``fail_stage``, ``skip_stage``,
  ``reconcile_owned_stages``, ``retry_stage`` (``is_retryable``); the only writers of ``Stage*``
  events, ``StageTrackerService`` is the ``StageTracker`` port over them;
* the candidate profile — ``load_profile``, ``save_profile``, ``record_profile_dispatches``,
  ``close_profile_continuation``; the only writers of ``Profile*`` events;
* ``stage_machine.apply_trigger(state, trigger, inputs)`` — the reference JSON adapter (stable).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobctrl.kernel.stages import STAGES
    from jobctrl.orchestration.adapters.discovery_run_log import DiscoveryRunLog
    from jobctrl.orchestration.adapters.settings_store import InvalidSettings, SettingsStore
    from jobctrl.orchestration.adapters.spend_ledger import SpendLedger, ledger_with_settings
    from jobctrl.orchestration.adapters.stage_tracker import StageTrackerService
    from jobctrl.orchestration.adapters.tables import create_orchestration_tables
    from jobctrl.orchestration.domain.discovery_run import DiscoveryRun, progress_total
    from jobctrl.orchestration.domain.execution_steps import ExecutionSteps
    from jobctrl.orchestration.domain.preparation_plan import PreparationTarget, WorkPlan, plan_preparation
    from jobctrl.orchestration.domain.profile.aggregate import DispatchKind, IntentStatus, SaveOutcome
    from jobctrl.orchestration.domain.profile.json_resume import (
        InvalidJsonResume,
        assign_missing_ids,
        looks_like_json_resume,
        to_document,
    )
    from jobctrl.orchestration.domain.profile.normalize import InvalidProfile, normalize_profile
    from jobctrl.orchestration.domain.settings.model import OrchestrationSettings
    from jobctrl.orchestration.domain.stages.aggregate import JobStages
    from jobctrl.orchestration.domain.stages.states import (
        Blocked,
        Canceled,
        Exhausted,
        Failed,
        StageOwner,
        StageState,
        Stale,
        kind_of,
    )
    from jobctrl.orchestration.domain.workflow_run import (
        LIFECYCLE_TYPES,
        NOT_FOUND,
        DescribedStatus,
        WorkflowRun,
    )
    from jobctrl.orchestration.ports import (
        CloseInterruptedMembership,
        ContinuationControl,
        PreparationCandidates,
        RecordWorkPlans,
        StartPreparation,
    )
    from jobctrl.orchestration.use_cases._runs import load_run
    from jobctrl.orchestration.use_cases.acknowledge_digest import acknowledge_digest, last_acknowledged
    from jobctrl.orchestration.use_cases.begin_stage import begin_stage
    from jobctrl.orchestration.use_cases.change_job_stages import change_job_stages
    from jobctrl.orchestration.use_cases.check_spend_budget import check_spend_budget
    from jobctrl.orchestration.use_cases.close_orphaned_discovery_run import close_orphaned_discovery_run
    from jobctrl.orchestration.use_cases.close_profile_continuation import close_profile_continuation
    from jobctrl.orchestration.use_cases.complete_stage import complete_stage
    from jobctrl.orchestration.use_cases.derive_preparation_targets import derive_preparation_targets
    from jobctrl.orchestration.use_cases.drain_profile_outbox import (
        OUTCOME_OF_STATUS,
        DrainReport,
        drain_profile_outbox,
    )
    from jobctrl.orchestration.use_cases.fail_stage import fail_stage
    from jobctrl.orchestration.use_cases.fan_out_preparation import fan_out_preparation
    from jobctrl.orchestration.use_cases.finish_discovery_run import finish_discovery_run
    from jobctrl.orchestration.use_cases.interrupt_discovery_run import interrupt_discovery_run
    from jobctrl.orchestration.use_cases.load_job_stages import load_job_stages
    from jobctrl.orchestration.use_cases.load_profile import load_profile
    from jobctrl.orchestration.use_cases.reconcile_owned_stages import reconcile_owned_stages
    from jobctrl.orchestration.use_cases.reconcile_workflow_run import RunReconciled, reconcile_workflow_run
    from jobctrl.orchestration.use_cases.record_pipeline_steps import record_pipeline_steps
    from jobctrl.orchestration.use_cases.record_profile_dispatches import record_profile_dispatches
    from jobctrl.orchestration.use_cases.record_workflow_outcome import record_workflow_outcome
    from jobctrl.orchestration.use_cases.record_workflow_started import record_workflow_started
    from jobctrl.orchestration.use_cases.report_discovery_progress import report_discovery_progress
    from jobctrl.orchestration.use_cases.request_workflow_cancellation import request_workflow_cancellation
    from jobctrl.orchestration.use_cases.retry_stage import RETRYABLE_STATES, is_retryable, retry_stage
    from jobctrl.orchestration.use_cases.save_profile import save_profile
    from jobctrl.orchestration.use_cases.settle_pipeline_steps import settle_pipeline_steps
    from jobctrl.orchestration.use_cases.skip_stage import skip_stage
    from jobctrl.orchestration.use_cases.start_discovery_run import start_discovery_run
    from jobctrl.orchestration.workflows import (
        APPLY_WORKFLOW_TYPE,
        CONTACT_RESEARCH_WORKFLOW_TYPE,
        CONTINUATION_WORKFLOW_TYPE,
        DISCOVER_WORKFLOW_TYPE,
        PREPARATION_WORKFLOW_TYPE,
        WORKFLOWS,
    )
    from jobctrl.orchestration.workflows.apply import ApplyWorkflow, ApplyWorkflowInput
    from jobctrl.orchestration.workflows.contact_research import ContactResearchInput
    from jobctrl.orchestration.workflows.continuation import (
        CLOSED_STATUSES,
        COHORT,
        STATUS_ACTIVITY,
        TARGETS_ACTIVITY,
        ContinuationStatus,
        ContinuationStatusInput,
        ContinuationTargets,
        ContinuationTargetsInput,
        ProfileContinuationInput,
    )
    from jobctrl.orchestration.workflows.discover import (
        DiscoverResult,
        DiscoverWorkflow,
        DiscoverWorkflowInput,
    )
    from jobctrl.orchestration.workflows.ids import (
        AUTO_APPLY_LOOP_ID,
        DISCOVERY_SCHEDULE_ID,
        TASK_QUEUE,
        apply_workflow_id,
        contact_research_workflow_id,
        discover_workflow_id,
        preparation_idempotency_key,
        preparation_workflow_id,
    )
    from jobctrl.orchestration.workflows.preparation import ORDER, JobPreparationInput, JobPreparationWorkflow

_EXPORTS: dict[str, str] = {
    "record_workflow_started": "jobctrl.orchestration.use_cases.record_workflow_started",
    "record_workflow_outcome": "jobctrl.orchestration.use_cases.record_workflow_outcome",
    "reconcile_workflow_run": "jobctrl.orchestration.use_cases.reconcile_workflow_run",
    "RunReconciled": "jobctrl.orchestration.use_cases.reconcile_workflow_run",
    "record_pipeline_steps": "jobctrl.orchestration.use_cases.record_pipeline_steps",
    "settle_pipeline_steps": "jobctrl.orchestration.use_cases.settle_pipeline_steps",
    "request_workflow_cancellation": "jobctrl.orchestration.use_cases.request_workflow_cancellation",
    "load_run": "jobctrl.orchestration.use_cases._runs",
    "WorkflowRun": "jobctrl.orchestration.domain.workflow_run",
    "DescribedStatus": "jobctrl.orchestration.domain.workflow_run",
    "LIFECYCLE_TYPES": "jobctrl.orchestration.domain.workflow_run",
    "NOT_FOUND": "jobctrl.orchestration.domain.workflow_run",
    "ExecutionSteps": "jobctrl.orchestration.domain.execution_steps",
    "DiscoveryRun": "jobctrl.orchestration.domain.discovery_run",
    "progress_total": "jobctrl.orchestration.domain.discovery_run",
    "start_discovery_run": "jobctrl.orchestration.use_cases.start_discovery_run",
    "report_discovery_progress": "jobctrl.orchestration.use_cases.report_discovery_progress",
    "finish_discovery_run": "jobctrl.orchestration.use_cases.finish_discovery_run",
    "interrupt_discovery_run": "jobctrl.orchestration.use_cases.interrupt_discovery_run",
    "close_orphaned_discovery_run": "jobctrl.orchestration.use_cases.close_orphaned_discovery_run",
    "DiscoveryRunLog": "jobctrl.orchestration.adapters.discovery_run_log",
    "CloseInterruptedMembership": "jobctrl.orchestration.ports",
    "RecordWorkPlans": "jobctrl.orchestration.ports",
    "StartPreparation": "jobctrl.orchestration.ports",
    "PreparationTarget": "jobctrl.orchestration.domain.preparation_plan",
    "WorkPlan": "jobctrl.orchestration.domain.preparation_plan",
    "plan_preparation": "jobctrl.orchestration.domain.preparation_plan",
    "fan_out_preparation": "jobctrl.orchestration.use_cases.fan_out_preparation",
    "ContinuationControl": "jobctrl.orchestration.ports",
    "PreparationCandidates": "jobctrl.orchestration.ports",
    "derive_preparation_targets": "jobctrl.orchestration.use_cases.derive_preparation_targets",
    "drain_profile_outbox": "jobctrl.orchestration.use_cases.drain_profile_outbox",
    "DrainReport": "jobctrl.orchestration.use_cases.drain_profile_outbox",
    "OUTCOME_OF_STATUS": "jobctrl.orchestration.use_cases.drain_profile_outbox",
    "APPLY_WORKFLOW_TYPE": "jobctrl.orchestration.workflows",
    "AUTO_APPLY_LOOP_ID": "jobctrl.orchestration.workflows.ids",
    "ApplyWorkflow": "jobctrl.orchestration.workflows.apply",
    "ApplyWorkflowInput": "jobctrl.orchestration.workflows.apply",
    "Blocked": "jobctrl.orchestration.domain.stages.states",
    "CLOSED_STATUSES": "jobctrl.orchestration.workflows.continuation",
    "COHORT": "jobctrl.orchestration.workflows.continuation",
    "CONTACT_RESEARCH_WORKFLOW_TYPE": "jobctrl.orchestration.workflows",
    "CONTINUATION_WORKFLOW_TYPE": "jobctrl.orchestration.workflows",
    "Canceled": "jobctrl.orchestration.domain.stages.states",
    "ContactResearchInput": "jobctrl.orchestration.workflows.contact_research",
    "ContinuationStatus": "jobctrl.orchestration.workflows.continuation",
    "ContinuationStatusInput": "jobctrl.orchestration.workflows.continuation",
    "ContinuationTargets": "jobctrl.orchestration.workflows.continuation",
    "ContinuationTargetsInput": "jobctrl.orchestration.workflows.continuation",
    "DISCOVERY_SCHEDULE_ID": "jobctrl.orchestration.workflows.ids",
    "DISCOVER_WORKFLOW_TYPE": "jobctrl.orchestration.workflows",
    "DiscoverResult": "jobctrl.orchestration.workflows.discover",
    "DiscoverWorkflow": "jobctrl.orchestration.workflows.discover",
    "DiscoverWorkflowInput": "jobctrl.orchestration.workflows.discover",
    "DispatchKind": "jobctrl.orchestration.domain.profile.aggregate",
    "Exhausted": "jobctrl.orchestration.domain.stages.states",
    "Failed": "jobctrl.orchestration.domain.stages.states",
    "IntentStatus": "jobctrl.orchestration.domain.profile.aggregate",
    "InvalidJsonResume": "jobctrl.orchestration.domain.profile.json_resume",
    "InvalidProfile": "jobctrl.orchestration.domain.profile.normalize",
    "InvalidSettings": "jobctrl.orchestration.adapters.settings_store",
    "JobPreparationInput": "jobctrl.orchestration.workflows.preparation",
    "JobPreparationWorkflow": "jobctrl.orchestration.workflows.preparation",
    "JobStages": "jobctrl.orchestration.domain.stages.aggregate",
    "ORDER": "jobctrl.orchestration.workflows.preparation",
    "OrchestrationSettings": "jobctrl.orchestration.domain.settings.model",
    "PREPARATION_WORKFLOW_TYPE": "jobctrl.orchestration.workflows",
    "ProfileContinuationInput": "jobctrl.orchestration.workflows.continuation",
    "STAGES": "jobctrl.kernel.stages",
    "STATUS_ACTIVITY": "jobctrl.orchestration.workflows.continuation",
    "SaveOutcome": "jobctrl.orchestration.domain.profile.aggregate",
    "SettingsStore": "jobctrl.orchestration.adapters.settings_store",
    "SpendLedger": "jobctrl.orchestration.adapters.spend_ledger",
    "StageState": "jobctrl.orchestration.domain.stages.states",
    "StageTrackerService": "jobctrl.orchestration.adapters.stage_tracker",
    "Stale": "jobctrl.orchestration.domain.stages.states",
    "TARGETS_ACTIVITY": "jobctrl.orchestration.workflows.continuation",
    "TASK_QUEUE": "jobctrl.orchestration.workflows.ids",
    "WORKFLOWS": "jobctrl.orchestration.workflows",
    "acknowledge_digest": "jobctrl.orchestration.use_cases.acknowledge_digest",
    "apply_workflow_id": "jobctrl.orchestration.workflows.ids",
    "assign_missing_ids": "jobctrl.orchestration.domain.profile.json_resume",
    "check_spend_budget": "jobctrl.orchestration.use_cases.check_spend_budget",
    "contact_research_workflow_id": "jobctrl.orchestration.workflows.ids",
    "create_orchestration_tables": "jobctrl.orchestration.adapters.tables",
    "discover_workflow_id": "jobctrl.orchestration.workflows.ids",
    "kind_of": "jobctrl.orchestration.domain.stages.states",
    "last_acknowledged": "jobctrl.orchestration.use_cases.acknowledge_digest",
    "ledger_with_settings": "jobctrl.orchestration.adapters.spend_ledger",
    "looks_like_json_resume": "jobctrl.orchestration.domain.profile.json_resume",
    "normalize_profile": "jobctrl.orchestration.domain.profile.normalize",
    "preparation_idempotency_key": "jobctrl.orchestration.workflows.ids",
    "preparation_workflow_id": "jobctrl.orchestration.workflows.ids",
    "to_document": "jobctrl.orchestration.domain.profile.json_resume",
    "load_job_stages": "jobctrl.orchestration.use_cases.load_job_stages",
    "change_job_stages": "jobctrl.orchestration.use_cases.change_job_stages",
    "begin_stage": "jobctrl.orchestration.use_cases.begin_stage",
    "complete_stage": "jobctrl.orchestration.use_cases.complete_stage",
    "fail_stage": "jobctrl.orchestration.use_cases.fail_stage",
    "skip_stage": "jobctrl.orchestration.use_cases.skip_stage",
    "reconcile_owned_stages": "jobctrl.orchestration.use_cases.reconcile_owned_stages",
    "retry_stage": "jobctrl.orchestration.use_cases.retry_stage",
    "load_profile": "jobctrl.orchestration.use_cases.load_profile",
    "save_profile": "jobctrl.orchestration.use_cases.save_profile",
    "record_profile_dispatches": "jobctrl.orchestration.use_cases.record_profile_dispatches",
    "close_profile_continuation": "jobctrl.orchestration.use_cases.close_profile_continuation",
    "is_retryable": "jobctrl.orchestration.use_cases.retry_stage",
    "RETRYABLE_STATES": "jobctrl.orchestration.use_cases.retry_stage",
    "StageOwner": "jobctrl.orchestration.domain.stages.states",
}

__all__ = [
    "APPLY_WORKFLOW_TYPE",
    "AUTO_APPLY_LOOP_ID",
    "CLOSED_STATUSES",
    "COHORT",
    "CONTACT_RESEARCH_WORKFLOW_TYPE",
    "CONTINUATION_WORKFLOW_TYPE",
    "DISCOVERY_SCHEDULE_ID",
    "DISCOVER_WORKFLOW_TYPE",
    "LIFECYCLE_TYPES",
    "NOT_FOUND",
    "ORDER",
    "OUTCOME_OF_STATUS",
    "PREPARATION_WORKFLOW_TYPE",
    "RETRYABLE_STATES",
    "STAGES",
    "STATUS_ACTIVITY",
    "TARGETS_ACTIVITY",
    "TASK_QUEUE",
    "WORKFLOWS",
    "ApplyWorkflow",
    "ApplyWorkflowInput",
    "Blocked",
    "Canceled",
    "CloseInterruptedMembership",
    "ContactResearchInput",
    "ContinuationControl",
    "ContinuationStatus",
    "ContinuationStatusInput",
    "ContinuationTargets",
    "ContinuationTargetsInput",
    "DescribedStatus",
    "DiscoverResult",
    "DiscoverWorkflow",
    "DiscoverWorkflowInput",
    "DiscoveryRun",
    "DiscoveryRunLog",
    "DispatchKind",
    "DrainReport",
    "ExecutionSteps",
    "Exhausted",
    "Failed",
    "IntentStatus",
    "InvalidJsonResume",
    "InvalidProfile",
    "InvalidSettings",
    "JobPreparationInput",
    "JobPreparationWorkflow",
    "JobStages",
    "OrchestrationSettings",
    "PreparationCandidates",
    "PreparationTarget",
    "ProfileContinuationInput",
    "RecordWorkPlans",
    "RunReconciled",
    "SaveOutcome",
    "SettingsStore",
    "SpendLedger",
    "StageOwner",
    "StageState",
    "StageTrackerService",
    "Stale",
    "StartPreparation",
    "WorkPlan",
    "WorkflowRun",
    "acknowledge_digest",
    "apply_workflow_id",
    "assign_missing_ids",
    "begin_stage",
    "change_job_stages",
    "check_spend_budget",
    "close_orphaned_discovery_run",
    "close_profile_continuation",
    "complete_stage",
    "contact_research_workflow_id",
    "create_orchestration_tables",
    "derive_preparation_targets",
    "discover_workflow_id",
    "drain_profile_outbox",
    "fail_stage",
    "fan_out_preparation",
    "finish_discovery_run",
    "interrupt_discovery_run",
    "is_retryable",
    "kind_of",
    "last_acknowledged",
    "ledger_with_settings",
    "load_job_stages",
    "load_profile",
    "load_run",
    "looks_like_json_resume",
    "normalize_profile",
    "plan_preparation",
    "preparation_idempotency_key",
    "preparation_workflow_id",
    "progress_total",
    "reconcile_owned_stages",
    "reconcile_workflow_run",
    "record_pipeline_steps",
    "record_profile_dispatches",
    "record_workflow_outcome",
    "record_workflow_started",
    "report_discovery_progress",
    "request_workflow_cancellation",
    "retry_stage",
    "save_profile",
    "settle_pipeline_steps",
    "skip_stage",
    "start_discovery_run",
    "to_document",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'jobctrl.orchestration' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
