"""``outreach_thread_projections``: one row per outreach thread, its draft and its follow-up (ADR 0211)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0008"
down_revision = "p0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outreach_thread_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("thread_id", sa.String(200), primary_key=True),
        sa.Column("contact_id", sa.String(200), nullable=True),
        sa.Column("job_id", sa.String(200), nullable=True),
        sa.Column("kind", sa.String(20), nullable=True),
        sa.Column("draft_id", sa.String(200), nullable=True),
        sa.Column("generation", sa.Integer, nullable=True),
        sa.Column("draft_status", sa.String(20), nullable=True),
        sa.Column("drafted_at", sa.String(40), nullable=True),
        sa.Column("decided_at", sa.String(40), nullable=True),
        sa.Column("rejection_reason", sa.String(80), nullable=True),
        sa.Column("sends", sa.Integer, nullable=False),
        sa.Column("last_sent_at", sa.String(40), nullable=True),
        sa.Column("send_channel", sa.String(40), nullable=True),
        sa.Column("follow_up_status", sa.String(20), nullable=True),
        sa.Column("follow_up_due_at", sa.String(40), nullable=True),
        sa.Column("follow_up_basis", sa.String(40), nullable=True),
        sa.Column("follow_up_closed_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("outreach_thread_projections")
