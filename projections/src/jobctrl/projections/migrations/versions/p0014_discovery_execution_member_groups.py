"""``discovery_execution_member_groups``: each Discover execution's members counted by cohort, plan,
required steps and the state of each per-job stage, kept by the fold engine with the member and
stage rows (ADR 0445).

On an upgraded database the table is filled here from the rows already folded, with the same
``GROUP BY`` the engine's counts always equal (a group of zero has no row), so the runner goes on
from exact counts without a rebuild.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from jobctrl.projections.read_models.member_groups import GROUP_STAGES, member_group_select
from jobctrl.projections.schema import metadata

revision = "p0014"
down_revision = "p0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    target = op.create_table(
        "discovery_execution_member_groups",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("cohort", sa.String(20), primary_key=True),
        sa.Column("plan_state", sa.String(20), primary_key=True),
        sa.Column("required_steps_json", sa.Text, primary_key=True),
        *(sa.Column(f"state_{stage}", sa.String(20), primary_key=True) for stage in GROUP_STAGES),
        sa.Column("score_cancel", sa.String(500), primary_key=True),
        sa.Column("member_count", sa.BigInteger, nullable=False),
    )
    members, stages = metadata.tables["discovery_execution_jobs"], metadata.tables["job_stage_states"]
    op.execute(
        sa.insert(target).from_select([c.name for c in target.columns], member_group_select(members, stages))
    )


def downgrade() -> None:
    op.drop_table("discovery_execution_member_groups")
