"""Stage states of every stage event (v2 fields, queued/stale rows, unblocks), blocked apply runs and
identity claims, research-source counts; new: Discover execution membership, discovery runs, source
quality, profile versions and continuations, scoring policies.

Changed tables are dropped and recreated rather than altered: their old rows were folded by the old
rules, and a column added with a default would not equal a rebuild.  Start-up self-healing finds the
recreated and the new tables (and the emptied dashboard counters) empty while the watermark is past
the events that create their rows, and rebuilds each of those projections from the log.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0004"
down_revision = "p0003"
branch_labels = None
depends_on = None

_RECREATED = ("job_stage_states", "apply_run_projections", "contact_research_task_projections")


def upgrade() -> None:
    for name in _RECREATED:
        op.drop_table(name)
    # New counters (blocked / marked-stale stages, blocked apply submissions) would start at zero for
    # events already folded: empty the counters so self-healing recounts them all from the log.
    op.execute("DELETE FROM dashboard_projections")
    _job_stage_states()
    _apply_run_projections()
    _contact_research_task_projections()
    _discovery_execution_jobs()
    _discovery_executions()
    _discovery_run_projections()
    _source_quality_projections()
    _profile_version_projections()
    _profile_continuation_projections()
    _scoring_policy_projections()


def _job_stage_states() -> None:
    op.create_table(
        "job_stage_states",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("job_id", sa.String(200), primary_key=True),
        sa.Column("stage", sa.String(20), primary_key=True),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("max_attempts", sa.Integer, nullable=True),
        sa.Column("queued_at", sa.String(40), nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("duration_ms", sa.BigInteger, nullable=True),
        sa.Column("error_code", sa.String(80), nullable=True),
        sa.Column("error_message", sa.String(500), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("blocked_by_json", sa.Text, nullable=False),
        sa.Column("reason", sa.String(500), nullable=True),
        sa.Column("next_action", sa.String(20), nullable=False),
        sa.Column("owner_workflow_id", sa.String(200), nullable=True),
        sa.Column("owner_run_id", sa.String(200), nullable=True),
        sa.Column("owner_attempt", sa.Integer, nullable=True),
        sa.Column("baseline_version", sa.Integer, nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _apply_run_projections() -> None:
    op.create_table(
        "apply_run_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("job_id", sa.String(200), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("result_code", sa.String(64), nullable=True),
        sa.Column("dry_run", sa.Boolean, nullable=True),
        sa.Column("worker_id", sa.String(200), nullable=True),
        sa.Column("model", sa.String(200), nullable=True),
        sa.Column("submit_intended_at", sa.String(40), nullable=True),
        sa.Column("email_candidate", sa.Boolean, nullable=False),
        sa.Column("run_events", sa.Integer, nullable=False),
        sa.Column("last_event_kind", sa.String(64), nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("verification_confidence", sa.Float, nullable=True),
        sa.Column("identity_claimed_at", sa.String(40), nullable=True),
        sa.Column("repeat_override", sa.Boolean, nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _contact_research_task_projections() -> None:
    op.create_table(
        "contact_research_task_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("task_id", sa.String(200), primary_key=True),
        sa.Column("employer", sa.String(200), nullable=True),
        sa.Column("job_id", sa.String(200), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("candidates", sa.Integer, nullable=False),
        sa.Column("confirmed", sa.Integer, nullable=True),
        sa.Column("error_class", sa.String(80), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("sources_attempted", sa.Integer, nullable=False),
        sa.Column("sources_refused", sa.Integer, nullable=False),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _discovery_execution_jobs() -> None:
    op.create_table(
        "discovery_execution_jobs",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("job_id", sa.String(200), primary_key=True),
        sa.Column("cohort", sa.String(20), nullable=False),
        sa.Column("linked_at", sa.String(40), nullable=True),
        sa.Column("promoted_at", sa.String(40), nullable=True),
        sa.Column("plan_state", sa.String(20), nullable=False),
        sa.Column("required_steps_json", sa.Text, nullable=False),
        sa.Column("child_workflow_id", sa.String(200), nullable=True),
        sa.Column("plan_reason", sa.String(80), nullable=True),
        sa.Column("plan_recorded_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _discovery_executions() -> None:
    op.create_table(
        "discovery_executions",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("membership_closed", sa.Boolean, nullable=False),
        sa.Column("closed_member_count", sa.Integer, nullable=True),
        sa.Column("closed_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _discovery_run_projections() -> None:
    op.create_table(
        "discovery_run_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("source_count", sa.Integer, nullable=True),
        sa.Column("progress_completed", sa.Integer, nullable=False),
        sa.Column("progress_total", sa.Integer, nullable=False),
        sa.Column("total_jobs", sa.Integer, nullable=True),
        sa.Column("new_jobs", sa.Integer, nullable=True),
        sa.Column("existing_jobs", sa.Integer, nullable=True),
        sa.Column("observed_jobs", sa.Integer, nullable=True),
        sa.Column("duplicate_jobs", sa.Integer, nullable=True),
        sa.Column("rejected_duplicates", sa.Integer, nullable=True),
        sa.Column("error_classes_json", sa.Text, nullable=False),
        sa.Column("failed_source_id", sa.String(200), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _source_quality_projections() -> None:
    op.create_table(
        "source_quality_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("source_id", sa.String(200), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=True),
        sa.Column("policy_id", sa.String(200), nullable=True),
        sa.Column("state", sa.String(20), nullable=True),
        sa.Column("state_reason", sa.String(200), nullable=True),
        sa.Column("state_changed_at", sa.String(40), nullable=True),
        sa.Column("registry_updates", sa.Integer, nullable=False),
        sa.Column("observations", sa.Integer, nullable=False),
        sa.Column("last_observed_at", sa.String(40), nullable=True),
        sa.Column("run_failures", sa.Integer, nullable=False),
        sa.Column("consecutive_failures", sa.Integer, nullable=False),
        sa.Column("last_error_class", sa.String(80), nullable=True),
        sa.Column("last_failed_at", sa.String(40), nullable=True),
        sa.Column("feedback_useful", sa.Integer, nullable=False),
        sa.Column("feedback_duplicate", sa.Integer, nullable=False),
        sa.Column("feedback_poor", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _profile_version_projections() -> None:
    op.create_table(
        "profile_version_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("profile_version", sa.Integer, primary_key=True),
        sa.Column("facts_digest", sa.String(128), nullable=False),
        sa.Column("presentation_digest", sa.String(128), nullable=False),
        sa.Column("sections_json", sa.Text, nullable=False),
        sa.Column("saved_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _profile_continuation_projections() -> None:
    op.create_table(
        "profile_continuation_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("intent_id", sa.String(200), primary_key=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("profile_version", sa.Integer, nullable=True),
        sa.Column("workflow_id", sa.String(200), nullable=True),
        sa.Column("into_intent_id", sa.String(200), nullable=True),
        sa.Column("queued_at", sa.String(40), nullable=True),
        sa.Column("dispatch_intended_at", sa.String(40), nullable=True),
        sa.Column("coalesced_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def _scoring_policy_projections() -> None:
    op.create_table(
        "scoring_policy_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("policy_id", sa.String(200), primary_key=True),
        sa.Column("policy_version", sa.Integer, nullable=False),
        sa.Column("previous_policy_version", sa.Integer, nullable=True),
        sa.Column("policy_fingerprint", sa.String(128), nullable=False),
        sa.Column("changed_fields_json", sa.Text, nullable=False),
        sa.Column("criteria", sa.Text, nullable=False),
        sa.Column("strong_band_min", sa.Integer, nullable=False),
        sa.Column("good_band_min", sa.Integer, nullable=False),
        sa.Column("stretch_band_min", sa.Integer, nullable=False),
        sa.Column("versions_seen", sa.Integer, nullable=False),
        sa.Column("policy_updated_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
