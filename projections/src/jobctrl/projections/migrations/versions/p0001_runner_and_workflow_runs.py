"""The runner's tracking tables and the first (legacy-shaped) workflow_run_projections.

This is the shape older local databases carry: one row per workflow id with its latest status, no
timeline, no recovery marker.  Later revisions migrate it before the runner folds into it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "projection_watermarks",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("position", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "projection_skipped_events",
        sa.Column("watermark", sa.String(64), primary_key=True),
        sa.Column("position", sa.BigInteger, primary_key=True),
        sa.Column("event_type", sa.String(100), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )
    op.create_table(
        "workflow_run_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("workflow_type", sa.String(100), nullable=False),
        sa.Column("run_id", sa.String(200), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("error_code", sa.String(80), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
    )
