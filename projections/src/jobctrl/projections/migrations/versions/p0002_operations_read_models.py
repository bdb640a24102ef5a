"""Timeline and recovery columns on workflow_run_projections; pipeline steps, stage states and
dashboard counters.

The new workflow-run columns cannot be back-filled from the old rows (the timeline lives only in the
log), so the old rows are removed: start-up self-healing then finds workflow events at or below the
watermark with no rows and rebuilds that projection from the log.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0002"
down_revision = "p0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM workflow_run_projections"))
    with op.batch_alter_table("workflow_run_projections") as batch:
        batch.add_column(sa.Column("duration_ms", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("error_message", sa.String(500), nullable=True))
        batch.add_column(sa.Column("retryable", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("cancel_requested_at", sa.String(40), nullable=True))
        batch.add_column(sa.Column("recovered", sa.Boolean, nullable=False))
        batch.add_column(sa.Column("input_summary_json", sa.Text, nullable=False))
        batch.add_column(sa.Column("previous_run_ids_json", sa.Text, nullable=False))
        batch.add_column(sa.Column("timeline_json", sa.Text, nullable=False))
        batch.add_column(sa.Column("timeline_total", sa.Integer, nullable=False))
        batch.add_column(sa.Column("updated_at", sa.String(40), nullable=True))
    op.create_table(
        "pipeline_step_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("step_kind", sa.String(40), primary_key=True),
        sa.Column("item_key", sa.String(200), primary_key=True),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("queued_at", sa.String(40), nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("duration_ms", sa.BigInteger, nullable=True),
        sa.Column("error_code", sa.String(80), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("detail_code", sa.String(80), nullable=True),
        sa.Column("detail_item_count", sa.BigInteger, nullable=True),
        sa.Column("last_event_id", sa.BigInteger, nullable=False),
        sa.Column("last_updated_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "job_stage_states",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("job_id", sa.String(200), primary_key=True),
        sa.Column("stage", sa.String(20), primary_key=True),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("max_attempts", sa.Integer, nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("duration_ms", sa.BigInteger, nullable=True),
        sa.Column("error_code", sa.String(80), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("blocked_by_json", sa.Text, nullable=False),
        sa.Column("skip_reason", sa.String(500), nullable=True),
        sa.Column("next_action", sa.String(20), nullable=False),
        sa.Column("owner_workflow_id", sa.String(200), nullable=True),
        sa.Column("owner_run_id", sa.String(200), nullable=True),
        sa.Column("owner_attempt", sa.Integer, nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "dashboard_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("metric", sa.String(80), primary_key=True),
        sa.Column("value", sa.BigInteger, nullable=False),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
