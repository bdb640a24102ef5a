"""``job_stage_counts``: how many ``job_stage_states`` rows each (tenant, stage, state) has; no row
for a count of zero.  Kept by the engine in the same write as the stage rows (a ``GroupCount``
declared beside them in ``stage_states``, ADR 0345), so the operations snapshot's totals read a few
rows instead of grouping every stage row."""

from __future__ import annotations

import msgspec
import sqlalchemy as sa

from jobctrl.projections.model import ReadModelTable
from jobctrl.projections.schema import metadata

job_stage_counts = sa.Table(
    "job_stage_counts",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("stage", sa.String(20), primary_key=True),
    sa.Column("state", sa.String(20), primary_key=True),
    sa.Column("row_count", sa.BigInteger, nullable=False),
)


class StageCountRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    stage: str
    state: str
    row_count: int


STAGE_COUNTS = ReadModelTable(job_stage_counts, StageCountRow)
