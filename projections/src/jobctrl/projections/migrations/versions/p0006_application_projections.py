"""``application_projections``: one row per job from preparation to outcome (ADR 0162)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0006"
down_revision = "p0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "application_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("job_id", sa.String(200), primary_key=True),
        sa.Column("materials_generation", sa.Integer, nullable=True),
        sa.Column("resume_artifact_id", sa.String(200), nullable=True),
        sa.Column("cover_artifact_id", sa.String(200), nullable=True),
        sa.Column("resume_pdf_artifact_id", sa.String(200), nullable=True),
        sa.Column("cover_pdf_artifact_id", sa.String(200), nullable=True),
        sa.Column("prepared_at", sa.String(40), nullable=True),
        sa.Column("decision", sa.String(20), nullable=True),
        sa.Column("decided_at", sa.String(40), nullable=True),
        sa.Column("dry_runs", sa.Integer, nullable=False),
        sa.Column("live_runs", sa.Integer, nullable=False),
        sa.Column("submit_intended_at", sa.String(40), nullable=True),
        sa.Column("handed_off_at", sa.String(40), nullable=True),
        sa.Column("applied_at", sa.String(40), nullable=True),
        sa.Column("outcome", sa.String(30), nullable=True),
        sa.Column("outcome_at", sa.String(40), nullable=True),
        sa.Column("outcomes", sa.Integer, nullable=False),
        sa.Column("settled_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("application_projections")
