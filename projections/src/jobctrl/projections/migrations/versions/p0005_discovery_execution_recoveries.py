"""The Discover execution recovery checkpoint and the indexes the operations snapshot reads by."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0005"
down_revision = "p0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "discovery_execution_recoveries",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("decoder_version", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(20), nullable=False),
        sa.Column("history_event_id", sa.BigInteger, nullable=True),
        sa.Column("expected_members", sa.Integer, nullable=False),
        sa.Column("expected_steps", sa.Integer, nullable=False),
        sa.Column("persisted_members", sa.Integer, nullable=False),
        sa.Column("persisted_steps", sa.Integer, nullable=False),
        sa.Column("key_digest", sa.String(64), nullable=True),
        sa.Column("error_code", sa.String(64), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    # The operations snapshot scans stage rows by tenant and joins membership by job.
    op.create_index("ix_discovery_execution_jobs_job", "discovery_execution_jobs", ["tenant_id", "job_id"])
    op.create_index(
        "ix_job_stage_states_stage_state_finished",
        "job_stage_states",
        ["tenant_id", "stage", "state", "finished_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_job_stage_states_stage_state_finished", "job_stage_states")
    op.drop_index("ix_discovery_execution_jobs_job", "discovery_execution_jobs")
    op.drop_table("discovery_execution_recoveries")
