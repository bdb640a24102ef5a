"""``workflow_run_history``: every run of a workflow id, keyed by run id (ADR 0271).

The table starts empty on an existing database; start-up self-healing finds workflow events at or
below the watermark with no rows (``empty``) and rebuilds the projection from the log, which fills it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0012"
down_revision = "p0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "workflow_run_history",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("workflow_type", sa.String(100), nullable=False),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("error_code", sa.String(80), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("duration_ms", sa.BigInteger, nullable=True),
        sa.Column("error_message", sa.String(500), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("cancel_requested_at", sa.String(40), nullable=True),
        sa.Column("recovered", sa.Boolean, nullable=False),
        sa.Column("input_summary_json", sa.Text, nullable=False),
        sa.Column("previous_run_ids_json", sa.Text, nullable=False),
        sa.Column("timeline_json", sa.Text, nullable=False),
        sa.Column("timeline_total", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
        sa.Column("cancel_requested_by", sa.String(80), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("workflow_run_history")
