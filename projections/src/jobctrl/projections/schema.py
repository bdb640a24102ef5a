"""Tables the runner itself keeps: named watermarks and the report of skipped events.

Read-model tables are declared by their read-model modules on the same ``metadata``; Alembic
migrations (``migrations/``) create and evolve all of them.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

metadata = sa.MetaData()

OPERATIONS_WATERMARK = "operations"

# One row per named watermark: the last log position whose effects are in the read models it covers.
projection_watermarks = sa.Table(
    "projection_watermarks",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("position", sa.BigInteger, nullable=False),
)

# Events the runner could not fold (unknown type, failed validation), with position and reason.
projection_skipped_events = sa.Table(
    "projection_skipped_events",
    metadata,
    sa.Column("watermark", sa.String(64), primary_key=True),
    sa.Column("position", sa.BigInteger, primary_key=True),
    sa.Column("event_type", sa.String(100), nullable=False),
    sa.Column("reason", sa.String(500), nullable=False),
)


# Rows per read-model table as the fold engine counted them (created minus deleted, ADR 0133): a
# table holding fewer rows than its counter lost some, which start-up healing rebuilds.
projection_row_counts = sa.Table(
    "projection_row_counts",
    metadata,
    sa.Column("table_name", sa.String(100), primary_key=True),
    sa.Column("row_count", sa.BigInteger, nullable=False),
)


def execution_key_columns() -> tuple[sa.Column[Any], ...]:
    """The key columns of a read model kept per Discover execution: tenant, workflow id and Temporal
    run id (new columns for each table that uses them)."""
    return (
        sa.Column("tenant_id", sa.String(64), primary_key=True),
        sa.Column("workflow_id", sa.String(200), primary_key=True),
        sa.Column("run_id", sa.String(200), primary_key=True),
    )


def execution_key_values(execution: Any) -> dict[str, str]:
    """An execution reference's values for ``execution_key_columns``: the one mapping of its Temporal
    run id onto ``run_id``."""
    return {
        "tenant_id": execution.tenant_id,
        "workflow_id": execution.workflow_id,
        "run_id": execution.temporal_run_id,
    }
