"""Per-execution key counts and incremental digests of membership and pipeline-step keys (ADR 0132),
and the fold engine's per-table row counters (ADR 0133).

The tables start empty on an existing database; the start-up verification (``verify_projections``)
finds their counts disagreeing with the rows and rebuilds the two projections, which fills them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0007"
down_revision = "p0006"
branch_labels = None
depends_on = None

_TABLES = ("discovery_execution_member_digests", "pipeline_step_key_digests")


def upgrade() -> None:
    for name in _TABLES:
        op.create_table(
            name,
            sa.Column("tenant_id", sa.String(64), primary_key=True),
            sa.Column("workflow_id", sa.String(200), primary_key=True),
            sa.Column("run_id", sa.String(200), primary_key=True),
            sa.Column("key_count", sa.Integer, nullable=False),
            sa.Column("key_digest", sa.String(64), nullable=False),
        )
    op.create_table(
        "projection_row_counts",
        sa.Column("table_name", sa.String(100), primary_key=True),
        sa.Column("row_count", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("projection_row_counts")
    for name in _TABLES:
        op.drop_table(name)
