"""``workflow_run_projections.cancel_requested_by``: who asked for a run's cancel (ADR 0193)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0010"
down_revision = "p0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("workflow_run_projections", sa.Column("cancel_requested_by", sa.String(80), nullable=True))


def downgrade() -> None:
    op.drop_column("workflow_run_projections", "cancel_requested_by")
