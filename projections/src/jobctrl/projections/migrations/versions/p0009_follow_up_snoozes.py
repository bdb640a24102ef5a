"""``application_projections.follow_up_snoozed_until``: the user's snooze of a follow-up (ADR 0213).

Existing rows get null, which is right: no snooze was ever recorded before this column.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0009"
down_revision = "p0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("application_projections") as batch:
        batch.add_column(sa.Column("follow_up_snoozed_until", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("application_projections") as batch:
        batch.drop_column("follow_up_snoozed_until")
