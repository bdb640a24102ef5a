"""STAND-IN for the projections engineer's (I3) p0004: only the Discover execution membership tables.

On merge, delete this file and keep I3's p0004 (same revision id), which creates these same tables
among others; p0005 (the recovery checkpoint) chains onto either.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0004"
down_revision = "p0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
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


def downgrade() -> None:
    op.drop_table("discovery_executions")
    op.drop_table("discovery_execution_jobs")
