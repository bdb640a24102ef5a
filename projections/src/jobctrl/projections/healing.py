"""Start-up self-healing: a projection whose rows are gone while the watermark says the events that
create them were folded is rebuilt from the log, instead of staying silently empty."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections.model import Projection
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.watermarks import read_watermark

log = logging.getLogger(__name__)


def rows_missing(conn: Connection, projection: Projection, watermark_position: int) -> bool:
    if not projection.creates_rows_on or watermark_position == 0:
        return False
    for table in projection.tables:
        if conn.execute(sa.select(sa.literal(1)).select_from(table.table).limit(1)).first() is not None:
            return False
    creating = conn.execute(
        sa.select(job_events.c.position)
        .where(
            job_events.c.event_type.in_(sorted(projection.creates_rows_on)),
            job_events.c.position <= watermark_position,
        )
        .limit(1)
    ).first()
    return creating is not None


def heal(
    db: Database, registry: EventRegistry, projections: Sequence[Projection], *, watermark: str
) -> list[str]:
    """Rebuild every projection with lost rows; returns their names."""
    with db.read() as conn:
        position = read_watermark(conn, watermark)
        broken = [p.name for p in projections if rows_missing(conn, p, position)]
    if broken:
        log.warning("rows missing below watermark %d; rebuilding %s", position, ", ".join(broken))
        rebuild(db, registry, broken, projections=projections, watermark=watermark)
    return broken
