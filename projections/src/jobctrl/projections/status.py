"""``jobctrl projections status``: head, watermark, lag, rows per table, skipped events."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.healing import leftover_shadows
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import Projection
from jobctrl.projections.schema import OPERATIONS_WATERMARK, projection_skipped_events
from jobctrl.projections.sqlutil import count_rows
from jobctrl.projections.watermarks import read_watermark


class TableStatus(msgspec.Struct, frozen=True, rename="camel"):
    projection: str
    table: str
    rows: int


class SkippedEvent(msgspec.Struct, frozen=True, rename="camel"):
    position: int
    event_type: str
    reason: str


class ProjectionStatus(msgspec.Struct, frozen=True, rename="camel"):
    watermark_name: str
    head: int
    watermark: int
    lag: int
    skipped: int
    tables: list[TableStatus]
    recent_skipped: list[SkippedEvent]
    leftover_shadows: list[str] = []  # tables a killed rebuild left behind (dropped at the next start)


def read_status(
    db: Database,
    projections: Sequence[Projection] = OPERATIONS,
    *,
    watermark: str = OPERATIONS_WATERMARK,
    recent: int = 10,
) -> ProjectionStatus:
    migrate(db)
    skipped_t = projection_skipped_events
    with db.read() as conn:
        head = int(
            conn.execute(sa.select(sa.func.coalesce(sa.func.max(job_events.c.position), 0))).scalar_one()
        )
        position = read_watermark(conn, watermark)
        skipped = int(
            conn.execute(
                sa.select(sa.func.count()).select_from(skipped_t).where(skipped_t.c.watermark == watermark)
            ).scalar_one()
        )
        latest = [
            SkippedEvent(int(p), t, r)
            for p, t, r in conn.execute(
                sa.select(skipped_t.c.position, skipped_t.c.event_type, skipped_t.c.reason)
                .where(skipped_t.c.watermark == watermark)
                .order_by(skipped_t.c.position.desc())
                .limit(recent)
            )
        ]
        tables = [
            TableStatus(p.name, t.name, count_rows(conn, t.table)) for p in projections for t in p.tables
        ]
        shadows = leftover_shadows(conn, projections)
    return ProjectionStatus(
        watermark, head, position, max(head - position, 0), skipped, tables, latest, shadows
    )
