"""Rebuilding read models from the log, transactionally.

The rows are folded into shadow tables (``<table>__rebuild``) in ordinary batches, then ONE swap
transaction locks the watermark, folds whatever the log gained meanwhile, replaces the live rows by
the shadow rows and (for a full rebuild) sets the watermark.  A failure anywhere before the swap
commits leaves the live rows and the watermark exactly as they were.

A partial rebuild (some projections under a shared watermark) folds up to the *current watermark*,
not the log head, so the rebuilt tables and the others stay covered by one position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections.coverage import OPERATIONS, projection_named
from jobctrl.projections.engine import FoldEngine, read_log
from jobctrl.projections.groupcount import group_select
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import Projection
from jobctrl.projections.read_models.member_groups import MEMBER_GROUPS, SOURCES, refill
from jobctrl.projections.rowcache import RowCache, frozen_heap, paused_gc
from jobctrl.projections.schema import OPERATIONS_WATERMARK, metadata, projection_watermarks
from jobctrl.projections.sqlutil import copy_table, reset_row_counts, shadow_of
from jobctrl.projections.watermarks import bump_replaced, ensure_watermark, read_watermark, set_watermark

Progress = Callable[[int, int], None]


class RebuildConflict(JobCtrlError):
    code = "rebuild_conflict"
    retryable = True


@dataclass(frozen=True)
class RebuildResult:
    projections: tuple[str, ...]
    position: int
    events: int
    skipped: int


def _head(conn: sa.Connection) -> int:
    return int(conn.execute(sa.select(sa.func.coalesce(sa.func.max(job_events.c.position), 0))).scalar_one())


def _refill_member_groups(
    conn: sa.Connection, selected: Sequence[Projection], into: dict[str, sa.Table]
) -> list[sa.Table]:
    """The member groups are the ``GROUP BY`` of the member and stage rows as they now are, whichever
    of the two projections was rebuilt (ADR 0445); a table not rebuilt is read (and written) live.
    Returns the live groups table when it was written outside the rebuilt tables."""
    rebuilt = {t.name for p in selected for t in p.tables}
    if rebuilt.isdisjoint(SOURCES):
        return []
    members, stages, target = (
        into.get(name, metadata.tables[name]) for name in (*SOURCES, MEMBER_GROUPS.name)
    )
    refill(conn, members, stages, target)
    return [] if MEMBER_GROUPS.name in rebuilt else [target]


def rebuild(
    db: Database,
    registry: EventRegistry,
    names: Sequence[str] | None = None,
    *,
    projections: Sequence[Projection] = OPERATIONS,
    watermark: str = OPERATIONS_WATERMARK,
    batch_size: int = 5000,
    progress: Progress | None = None,
    cache_capacity: int = 300_000,
) -> RebuildResult:
    """Rebuild ``names`` (default: every projection under ``watermark``) from the log."""
    if batch_size < 1:
        raise ValueError("batch_size must be positive")
    every = tuple(projections)
    selected = every if names is None else tuple(projection_named(n, every) for n in dict.fromkeys(names))
    full = {p.name for p in selected} == {p.name for p in every}
    migrate(db)
    engine = FoldEngine(registry, selected, group_counts=False)  # filled at the swap (ADR 0351)
    shadows = {t.name: shadow_of(t.table) for p in selected for t in p.tables}
    with db.write() as conn:
        ensure_watermark(conn, watermark)
        for shadow in shadows.values():
            shadow.drop(conn, checkfirst=True)
            shadow.create(conn)
    with db.read() as conn:
        target = _head(conn) if full else read_watermark(conn, watermark)
    # The shadows are new and empty: the cache starts complete, and fresh (nothing of it written).
    cache = RowCache(capacity=cache_capacity, fresh=True)
    cache.prepare(shadows)
    with frozen_heap():  # the cache is out of the GC's walks (ADR 0232)
        position, events, skipped = 0, 0, 0
        while True:
            with paused_gc(), db.write() as conn:
                batch = read_log(conn, position, batch_size, up_to=target)
                if not batch:
                    break
                skipped += len(engine.fold(conn, batch, shadows, watermark=watermark, cache=cache))
            position = batch[-1][0]
            events += len(batch)
            if progress is not None:
                progress(position, target)
        with db.write() as conn:
            # Lock the watermark row: no runner batch can commit between this read and the swap.
            current = conn.execute(
                sa.select(projection_watermarks.c.position)
                .where(projection_watermarks.c.name == watermark)
                .with_for_update()
            ).scalar_one()
            final = _head(conn) if full else int(current)
            if final < target:
                raise RebuildConflict(f"watermark {watermark!r} moved back from {target} to {final}")
            while True:  # what the log gained while the shadows were built
                batch = read_log(conn, position, batch_size, up_to=final)
                if not batch:
                    break
                with paused_gc():
                    skipped += len(engine.fold(conn, batch, shadows, watermark=watermark, cache=cache))
                position = batch[-1][0]
                events += len(batch)
            live = {t.name: t.table for p in selected for t in p.tables}
            if cache.complete:
                # Every rebuilt row is in memory (nothing was evicted, so the shadows are still
                # empty): write them straight into the emptied live tables instead of into the
                # shadows and then copying (ADR 0370).
                for table in live.values():
                    conn.execute(sa.delete(table))
                into = live
            else:
                into = shadows
            engine.flush(conn, cache, into)
            for grouping in (g for p in selected for g in p.group_counts):
                # The counts are the GROUP BY of their source's final rows: one statement, not a
                # tally moved with every fold (ADR 0351).
                fill = into[grouping.target.name]
                conn.execute(
                    sa.insert(fill).from_select(
                        [c.name for c in fill.columns], group_select(grouping, into[grouping.source])
                    )
                )
            outside = _refill_member_groups(conn, selected, into)
            if into is shadows:
                for name, table in live.items():
                    copy_table(conn, shadows[name], table)
            reset_row_counts(conn, [t.table for p in selected for t in p.tables] + outside)
            # Rows replaced under the watermark (a partial rebuild never moves it, a full one may
            # not): a runner's rows kept from before this swap are stale now (ADR 0400).
            bump_replaced(conn, watermark)
            for shadow in shadows.values():
                shadow.drop(conn)
            if full:
                set_watermark(conn, watermark, final)
    if progress is not None:
        progress(final, final)
    return RebuildResult(tuple(p.name for p in selected), final, events, skipped)
