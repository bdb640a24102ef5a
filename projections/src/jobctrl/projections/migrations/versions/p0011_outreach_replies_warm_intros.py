"""``outreach_thread_projections.replies``/``last_reply_at`` (``OutreachReplyRecorded``) and
``contact_projections.warm_intros``/``last_warm_intro_basis``/``last_warm_intro_at``
(``WarmIntroIdentified``) (ADR 0275).

Existing rows get 0 and null, which is right: no reply could be recorded before this event existed,
and nothing in JobCtrl wrote ``WarmIntroIdentified`` before it was folded (``jobctrl projections
rebuild contacts`` refolds an imported log that holds some).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0011"
down_revision = "p0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outreach_thread_projections") as batch:
        batch.add_column(sa.Column("replies", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("last_reply_at", sa.String(40), nullable=True))
    with op.batch_alter_table("contact_projections") as batch:
        batch.add_column(sa.Column("warm_intros", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("last_warm_intro_basis", sa.String(64), nullable=True))
        batch.add_column(sa.Column("last_warm_intro_at", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("contact_projections") as batch:
        batch.drop_column("last_warm_intro_at")
        batch.drop_column("last_warm_intro_basis")
        batch.drop_column("warm_intros")
    with op.batch_alter_table("outreach_thread_projections") as batch:
        batch.drop_column("last_reply_at")
        batch.drop_column("replies")
