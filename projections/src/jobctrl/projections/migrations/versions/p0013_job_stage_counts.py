"""``job_stage_counts``: the number of ``job_stage_states`` rows per (tenant, stage, state), kept by
the fold engine with the rows (ADR 0345).

On an upgraded database the table is filled here from the rows already folded, with the same
``GROUP BY`` the engine's counts always equal (a group of zero has no row), so the runner goes on
from exact counts without a rebuild.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0013"
down_revision = "p0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "job_stage_counts",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("stage", sa.String(20), primary_key=True),
        sa.Column("state", sa.String(20), primary_key=True),
        sa.Column("row_count", sa.BigInteger, nullable=False),
    )
    op.execute(
        "INSERT INTO job_stage_counts (tenant_id, stage, state, row_count) "
        "SELECT tenant_id, stage, state, count(*) FROM job_stage_states GROUP BY tenant_id, stage, state"
    )


def downgrade() -> None:
    op.drop_table("job_stage_counts")
