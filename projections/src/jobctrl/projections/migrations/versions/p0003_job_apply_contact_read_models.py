"""Job list and detail (discovery, enrichment, scoring parts), apply runs, contacts and contact
research tasks.

New tables only: start-up self-healing folds the events already below the watermark into them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0003"
down_revision = "p0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "job_list_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("job_id", sa.String(200), primary_key=True),
        sa.Column("title", sa.String(200), nullable=True),
        sa.Column("employer", sa.String(200), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("location", sa.String(200), nullable=True),
        sa.Column("description_preview", sa.String(280), nullable=True),
        sa.Column("fit_score", sa.Float, nullable=True),
        sa.Column("fit_band", sa.String(40), nullable=True),
        sa.Column("score_version", sa.Integer, nullable=True),
        sa.Column("keywords_json", sa.Text, nullable=False),
        sa.Column("active_state", sa.String(30), nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False),
        sa.Column("discovered_at", sa.String(40), nullable=True),
        sa.Column("enriched_at", sa.String(40), nullable=True),
        sa.Column("scored_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "job_detail_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("job_id", sa.String(200), primary_key=True),
        sa.Column("posting_url", sa.String(2000), nullable=False),
        sa.Column("canonical_url", sa.String(2000), nullable=True),
        sa.Column("ats_kind", sa.String(20), nullable=True),
        sa.Column("source_native_id", sa.String(200), nullable=True),
        sa.Column("identity_confidence", sa.Float, nullable=True),
        sa.Column("observations", sa.Integer, nullable=False),
        sa.Column("description", sa.Text, nullable=True),
        sa.Column("application_url", sa.String(2000), nullable=True),
        sa.Column("extraction_tier", sa.String(40), nullable=True),
        sa.Column("snapshot_version", sa.Integer, nullable=True),
        sa.Column("fit_score", sa.Float, nullable=True),
        sa.Column("score_version", sa.Integer, nullable=True),
        sa.Column("score_confidence", sa.String(40), nullable=True),
        sa.Column("breakdown_json", sa.Text, nullable=False),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "apply_run_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("job_id", sa.String(200), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("result_code", sa.String(64), nullable=True),
        sa.Column("dry_run", sa.Boolean, nullable=True),
        sa.Column("worker_id", sa.String(200), nullable=True),
        sa.Column("model", sa.String(200), nullable=True),
        sa.Column("submit_intended_at", sa.String(40), nullable=True),
        sa.Column("email_candidate", sa.Boolean, nullable=False),
        sa.Column("run_events", sa.Integer, nullable=False),
        sa.Column("last_event_kind", sa.String(64), nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("verification_confidence", sa.Float, nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "contact_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("contact_id", sa.String(200), primary_key=True),
        sa.Column("employer", sa.String(200), nullable=True),
        sa.Column("job_id", sa.String(200), nullable=True),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("attributes", sa.Integer, nullable=False),
        sa.Column("confirmed_attributes", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "contact_research_task_projections",
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("task_id", sa.String(200), primary_key=True),
        sa.Column("employer", sa.String(200), nullable=True),
        sa.Column("job_id", sa.String(200), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("candidates", sa.Integer, nullable=False),
        sa.Column("confirmed", sa.Integer, nullable=True),
        sa.Column("error_class", sa.String(80), nullable=True),
        sa.Column("retryable", sa.Boolean, nullable=True),
        sa.Column("started_at", sa.String(40), nullable=True),
        sa.Column("finished_at", sa.String(40), nullable=True),
        sa.Column("last_event_position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=True),
    )
