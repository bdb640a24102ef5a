"""Row counts per group of a read-model table, kept by the fold engine (``GroupCount``, ADR 0345).

A reader that needs ``count(*) … GROUP BY`` over a large table (the operations snapshot's stage
totals over every ``job_stage_states`` row) reads the few rows of the count table instead.  The
engine is the one writer: when a fold creates, changes or deletes a source row it moves one unit
from the old row's group to the new row's group, in the same batch write as the row, and a group
whose count reaches zero loses its row.  The table therefore always equals the ``GROUP BY`` of its
source, whichever way it was filled: folded by the runner, by a rebuild, or by ``refill`` (the
migration that creates the table on an upgraded database runs the same statement).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.projections.model import DELETED, GroupCount


def regroup(
    grouping: GroupCount,
    before: Any,
    after: Any,
    known: dict[str, dict[Hashable, Any]],
    dirty: dict[str, dict[Hashable, Any]],
    created: dict[str, int],
) -> None:
    """Move one unit from ``before``'s group to ``after``'s (either may be ``None``: no row)."""
    old = grouping.group(before) if before is not None else None
    new = grouping.group(after) if after is not None else None
    if old == new:
        return
    if old is not None:
        _tally(grouping, old, -1, known, dirty, created)
    if new is not None:
        _tally(grouping, new, 1, known, dirty, created)


def _tally(
    grouping: GroupCount,
    group: tuple[Any, ...],
    sign: int,
    known: dict[str, dict[Hashable, Any]],
    dirty: dict[str, dict[Hashable, Any]],
    created: dict[str, int],
) -> None:
    name = grouping.target.name
    rows = known[name]
    row = rows.get(group)
    if row is None:
        if sign < 0:  # nothing counted to take from: the table already disagrees (healing finds it)
            return
        created[name] += 1
        n = sign
    else:
        n = grouping.count_of(row) + sign
    if n <= 0:
        rows[group] = None
        dirty[name][group] = DELETED
        created[name] -= 1
        return
    rows[group] = dirty[name][group] = grouping.target.row(*group, n)


def load_all(conn: Connection, table: sa.Table, row_cls: Any, store: dict[Hashable, Any]) -> None:
    """Every row of a (small) count table into ``store``, keyed by its group; a group missing
    afterwards has no row.  Called only while ``store`` is empty, so nothing unwritten is lost."""
    width = len(table.primary_key.columns)
    for record in conn.execute(sa.select(table)):
        store[tuple(record[:width])] = row_cls(*record)


def group_select(grouping: GroupCount, source: sa.Table) -> sa.Select[Any]:
    """``SELECT <group columns>, count(*) FROM source GROUP BY <group columns>``."""
    keys = [source.c[c.name] for c in grouping.target.table.primary_key.columns]
    return sa.select(*keys, sa.func.count()).group_by(*keys)


def refill(conn: Connection, grouping: GroupCount, source: sa.Table) -> None:
    """Replace the count rows by the ``GROUP BY`` of ``source``'s rows, in the caller's transaction
    (for rows written in bulk, not folded: the bench's and tests' seeds)."""
    target = grouping.target.table
    conn.execute(sa.delete(target))
    conn.execute(
        sa.insert(target).from_select([c.name for c in target.columns], group_select(grouping, source))
    )


def counts_agree(conn: Connection, grouping: GroupCount, source: sa.Table) -> bool:
    """Whether the kept counts equal the ``GROUP BY`` of the source rows now (``--verify``)."""
    kept = {tuple(r[:-1]): int(r[-1]) for r in conn.execute(sa.select(grouping.target.table))}
    return kept == {tuple(r[:-1]): int(r[-1]) for r in conn.execute(group_select(grouping, source))}
