"""Read-model tables, folds, the projection runner, rebuild and status.

Public API:

* ``ProjectionRunner(db, registry, projections=OPERATIONS, watermark="operations", batch_size=...,
  poll_interval=..., commit_events=...)``: ``prepare()`` (migrate, ensure watermark, self-heal), ``step()``,
  ``catch_up()``, ``run(stop)`` (catch up and follow), ``stop()``.
* ``rebuild(db, registry, names=None, batch_size=..., progress=...)``: transactional rebuild.
* ``read_status(db)``: head, watermark, lag, rows per table, skipped events.
* ``dump_rows`` / ``dump_json``: a read model as camelCase JSON in primary-key order.
* ``import_file(store, path)`` / ``export_file(store, path)``: the log in and out as JSON Lines.
* ``verify_native_execution`` / ``record_native_checkpoint`` / ``record_retrying`` /
  ``read_coverage``: the Discover execution recovery checkpoint (``discovery_execution_recoveries``),
  ready only while its proof still holds.
* ``read_dashboard(conn)``: counters plus live workflow/stage state, never "running" for a dead run.
* Building blocks for new read models: ``Projection``, ``Fold``, ``ReadModelTable``, ``EventInfo``,
  ``DELETED``; add the module's ``PROJECTION`` to ``coverage.OPERATIONS`` and a migration revision.

Read models the pipeline-operations read side depends on (columns are a contract: a test checks this
list against the tables; times are ISO-8601 UTC ``...Z`` strings, ``*_json`` columns JSON text):

* ``discovery_execution_jobs`` — key (tenant_id, workflow_id, run_id, job_id), the immutable Discover
  execution reference plus the member: cohort (observed_this_run | existing_backlog; only ever
  promoted), linked_at, promoted_at, plan_state (pending | planned | not_eligible | failed),
  required_steps_json, child_workflow_id, plan_reason, plan_recorded_at, last_event_position,
  updated_at.
* ``discovery_executions`` — key (tenant_id, workflow_id, run_id): membership_closed,
  closed_member_count, closed_at, last_event_position, updated_at.  Member counts per cohort are a
  GROUP BY over ``discovery_execution_jobs``.
* ``pipeline_step_projections`` — key (tenant_id, workflow_id, run_id, step_kind, item_key): attempt,
  status, queued_at, started_at, finished_at, duration_ms, error_code, retryable, detail_code,
  detail_item_count, last_event_id, last_updated_at.
* ``job_stage_states`` — key (tenant_id, job_id, stage): state (pending | queued | running | succeeded
  | failed | exhausted | blocked | skipped | stale | canceled), attempts, max_attempts, queued_at,
  started_at, finished_at, duration_ms, error_code, error_message, retryable, blocked_by_json, reason,
  next_action, owner_workflow_id, owner_run_id, owner_attempt, baseline_version,
  last_event_position, updated_at.
* ``workflow_run_projections`` — key (tenant_id, workflow_id): workflow_type, run_id, status,
  started_at, finished_at, error_code, last_event_position, duration_ms, error_message, retryable,
  cancel_requested_at, recovered, input_summary_json, previous_run_ids_json, timeline_json,
  timeline_total, updated_at, cancel_requested_by (who asked for the cancel, p0010).
* ``workflow_run_history`` — key (tenant_id, workflow_id, run_id): the same columns, one row per run
  of a workflow id, folded by the same rules (p0012, ADR 0271).

Other read models: dashboard_projections, job_list/job_detail_projections, apply_run_projections,
contact_projections, contact_research_task_projections, discovery_run_projections,
source_quality_projections, profile_version_projections, profile_continuation_projections,
scoring_policy_projections.  ``discovery_execution_recoveries`` belongs to the operations read side.
"""

from jobctrl.projections.coverage import NOT_PROJECTED, OPERATIONS, UnknownProjection, projection_named
from jobctrl.projections.dump import dump_json, dump_rows
from jobctrl.projections.importing import ImportReport, export_file, import_file
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import DELETED, EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.operations_indexes import STAGE_STATE_FINISHED
from jobctrl.projections.read_models.dashboard import read_dashboard
from jobctrl.projections.rebuild import RebuildConflict, RebuildResult, rebuild
from jobctrl.projections.recoveries import (
    Coverage,
    ExecutionKey,
    KeySets,
    read_coverage,
    record_native_checkpoint,
    record_retrying,
    verify_native_execution,
)
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.status import ProjectionStatus, read_status

__all__ = [
    "DELETED",
    "NOT_PROJECTED",
    "OPERATIONS",
    "OPERATIONS_WATERMARK",
    "STAGE_STATE_FINISHED",
    "Coverage",
    "EventInfo",
    "ExecutionKey",
    "Fold",
    "ImportReport",
    "KeySets",
    "Projection",
    "ProjectionRunner",
    "ProjectionStatus",
    "ReadModelTable",
    "RebuildConflict",
    "RebuildResult",
    "UnknownProjection",
    "dump_json",
    "dump_rows",
    "export_file",
    "import_file",
    "migrate",
    "projection_named",
    "read_coverage",
    "read_dashboard",
    "read_status",
    "rebuild",
    "record_native_checkpoint",
    "record_retrying",
    "verify_native_execution",
]
