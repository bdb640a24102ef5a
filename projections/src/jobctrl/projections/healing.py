"""Start-up self-healing: a projection that lost rows is rebuilt from the log (ADR 0133).

Cheap checks, per projection, on every start (and on ``jobctrl projections status --verify``):

* ``empty``: every table is empty while the log holds, at or below the watermark, an event that
  always creates a row (the original check);
* ``row_count``: a table holds another number of rows than the fold engine's counter for it
  (``projection_row_counts``: created minus deleted rows, kept in the fold's transaction) -- a
  deleted row is found this way, not only an emptied table;
* ``key_count``: the per-execution key counts of a ``KeyDigest`` (ADR 0132) do not add up to the
  rows of its source table;
* ``group_count``: the row counts per group of a ``GroupCount`` (ADR 0345) do not add up to the
  rows of its source table;
* ``member_count``: the executions' member groups (ADR 0445) do not add up to the member rows.

``deep`` (only ``--verify``) also re-hashes each execution's keys and compares them with the kept
digests (``key_digest``), which finds a rewritten key the counts cannot see, and compares each
``GroupCount`` with the ``GROUP BY`` of its source (``group_counts``), which finds a row whose group
changed behind the engine, and the member groups with theirs (``member_groups``).

Shadow tables (``<table>__rebuild``) a killed rebuild left behind are listed by ``leftover_shadows``
and dropped by ``heal`` before it checks anything.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections.groupcount import counts_agree
from jobctrl.projections.keydigest import EMPTY, shift
from jobctrl.projections.model import Projection
from jobctrl.projections.read_models.member_groups import MEMBER_GROUPS, SOURCES, groups_agree
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.schema import metadata, projection_row_counts
from jobctrl.projections.sqlutil import reset_row_counts, shadow_of
from jobctrl.projections.watermarks import read_watermark

log = logging.getLogger(__name__)
SHADOW_SUFFIX = "__rebuild"


@dataclass(frozen=True)
class Finding:
    projection: str
    table: str
    # empty | row_count | key_count | key_digest | group_count | group_counts | member_count | member_groups
    reason: str
    expected: int | None = None
    found: int | None = None


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


def _count(conn: Connection, table: sa.Table) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def _deep_digests(conn: Connection, projection: Projection) -> list[Finding]:
    out = []
    for digest in projection.key_digests:
        source = next(t.table for t in projection.tables if t.name == digest.source)
        keys = [c for c in source.primary_key.columns]
        recomputed: dict[tuple[Any, ...], tuple[int, str]] = defaultdict(lambda: (0, EMPTY))
        for row in conn.execute(sa.select(*keys)):
            key = tuple(row)
            n, d = recomputed[key[:3]]
            recomputed[key[:3]] = (n + 1, shift(d, digest.term(key)))
        kept = {
            (r.tenant_id, r.workflow_id, r.run_id): (int(r.key_count), str(r.key_digest))
            for r in conn.execute(sa.select(digest.target.table))
            if int(r.key_count) > 0
        }
        if dict(recomputed) != kept:
            out.append(Finding(projection.name, digest.source, "key_digest"))
    for grouping in projection.group_counts:
        source = next(t.table for t in projection.tables if t.name == grouping.source)
        if not counts_agree(conn, grouping, source):
            out.append(Finding(projection.name, grouping.source, "group_counts"))
    if _keeps_member_groups(projection):
        members, stages = (metadata.tables[n] for n in SOURCES)
        if not groups_agree(conn, members, stages, MEMBER_GROUPS.table):
            out.append(Finding(projection.name, MEMBER_GROUPS.name, "member_groups"))
    return out


def _keeps_member_groups(projection: Projection) -> bool:
    return any(t.name == MEMBER_GROUPS.name for t in projection.tables)


def check_projection(
    conn: Connection, projection: Projection, watermark_position: int, *, deep: bool = False
) -> list[Finding]:
    """What is wrong with ``projection``'s rows (empty list: nothing found)."""
    if rows_missing(conn, projection, watermark_position):
        return [Finding(projection.name, projection.tables[0].name, "empty")]
    counters = dict(
        conn.execute(
            sa.select(projection_row_counts.c.table_name, projection_row_counts.c.row_count).where(
                projection_row_counts.c.table_name.in_([t.name for t in projection.tables])
            )
        ).all()
    )
    out = []
    for t in projection.tables:
        if t.name in counters and (n := _count(conn, t.table)) != int(counters[t.name]):
            out.append(Finding(projection.name, t.name, "row_count", int(counters[t.name]), n))
    for digest in projection.key_digests:
        source = next(t.table for t in projection.tables if t.name == digest.source)
        kept = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(digest.target.table.c.key_count), 0)))
        expected, found = int(kept.scalar_one()), _count(conn, source)
        if expected != found:
            out.append(Finding(projection.name, digest.source, "key_count", expected, found))
    for grouping in projection.group_counts:
        source = next(t.table for t in projection.tables if t.name == grouping.source)
        counted = list(grouping.target.table.columns)[-1]  # the count is the last column
        kept = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(counted), 0)))
        expected, found = int(kept.scalar_one()), _count(conn, source)
        if expected != found:
            out.append(Finding(projection.name, grouping.source, "group_count", expected, found))
    if _keeps_member_groups(projection):
        counted = MEMBER_GROUPS.table.c.member_count
        kept = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(counted), 0)))
        expected, found = int(kept.scalar_one()), _count(conn, metadata.tables[SOURCES[0]])
        if expected != found:
            out.append(Finding(projection.name, MEMBER_GROUPS.name, "member_count", expected, found))
    if deep and not out:
        out.extend(_deep_digests(conn, projection))
    return out


def leftover_shadows(conn: Connection, projections: Sequence[Projection]) -> list[str]:
    """Shadow tables of these projections that exist now (a rebuild killed before its swap)."""
    existing = set(sa.inspect(conn).get_table_names())
    return [
        t.name + SHADOW_SUFFIX for p in projections for t in p.tables if t.name + SHADOW_SUFFIX in existing
    ]


def verify_projections(
    db: Database, projections: Sequence[Projection], *, watermark: str, deep: bool = False
) -> list[Finding]:
    with db.read() as conn:
        position = read_watermark(conn, watermark)
        return [f for p in projections for f in check_projection(conn, p, position, deep=deep)]


def heal(
    db: Database,
    registry: EventRegistry,
    projections: Sequence[Projection],
    *,
    watermark: str,
    deep: bool = False,
) -> list[str]:
    """Drop leftover shadows, rebuild every projection that lost rows, and start the row counters
    of tables that have none yet; returns the names of the projections rebuilt."""
    with db.write() as conn:
        for name in leftover_shadows(conn, projections):
            log.warning("dropping %s, left by a rebuild that did not finish", name)
            table = next(t.table for p in projections for t in p.tables if t.name + SHADOW_SUFFIX == name)
            shadow_of(table, SHADOW_SUFFIX).drop(conn, checkfirst=True)
    findings = verify_projections(db, projections, watermark=watermark, deep=deep)
    broken = list(dict.fromkeys(f.projection for f in findings))
    if broken:
        log.warning(
            "rows missing below the watermark (%s); rebuilding %s",
            ", ".join(f"{f.table}: {f.reason}" for f in findings),
            ", ".join(broken),
        )
        rebuild(db, registry, broken, projections=projections, watermark=watermark)
    with db.write() as conn:
        counted = set(conn.execute(sa.select(projection_row_counts.c.table_name)).scalars())
        fresh = [t.table for p in projections for t in p.tables if t.name not in counted]
        if fresh:
            reset_row_counts(conn, fresh)
    return broken
