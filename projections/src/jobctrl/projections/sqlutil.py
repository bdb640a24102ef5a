"""Dialect-aware helpers: load rows by primary key, upsert many rows, count and copy tables."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql, sqlite

from jobctrl.projections.schema import projection_row_counts

_CHUNK = 500


def key_of(table: sa.Table, row: Any) -> Hashable:
    cols = table.primary_key.columns
    if len(cols) == 1:
        key: Hashable = row[0]
        return key
    return tuple(row[: len(cols)])


def load_rows(conn: Connection, table: sa.Table, keys: Sequence[Hashable]) -> list[sa.Row[Any]]:
    """Rows of ``table`` whose primary key is in ``keys`` (a scalar or a tuple per key)."""
    pk = list(table.primary_key.columns)
    # Primary-key columns first so ``key_of`` can read them by position.
    columns = [*pk, *(c for c in table.columns if not c.primary_key)]
    found: list[sa.Row[Any]] = []
    for start in range(0, len(keys), _CHUNK):
        chunk = list(keys[start : start + _CHUNK])
        where = pk[0].in_(chunk) if len(pk) == 1 else sa.tuple_(*pk).in_(chunk)
        found.extend(conn.execute(sa.select(*columns).where(where)))
    return found


def upsert_statement(conn: Connection, table: sa.Table) -> Any:
    """``INSERT … ON CONFLICT (pk) DO UPDATE`` for SQLite and PostgreSQL, to run with many rows."""
    insert = sqlite.insert if conn.dialect.name == "sqlite" else postgresql.insert
    stmt = insert(table)
    pk = [c.name for c in table.primary_key.columns]
    rest = {c.name: stmt.excluded[c.name] for c in table.columns if not c.primary_key}
    return stmt.on_conflict_do_update(index_elements=pk, set_=rest)


def insert_ignore_statement(conn: Connection, table: sa.Table) -> Any:
    insert = sqlite.insert if conn.dialect.name == "sqlite" else postgresql.insert
    return insert(table).on_conflict_do_nothing()


def count_rows(conn: Connection, table: sa.Table) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def copy_table(conn: Connection, source: sa.Table, target: sa.Table) -> None:
    """Replace every row of ``target`` by the rows of ``source`` (same columns), in the caller's tx."""
    names = [c.name for c in target.columns]
    conn.execute(sa.delete(target))
    conn.execute(sa.insert(target).from_select(names, sa.select(*(source.c[n] for n in names))))


def shadow_of(table: sa.Table, suffix: str = "__rebuild") -> sa.Table:
    """A copy of ``table`` under another name on a private MetaData (columns and primary key only)."""
    columns: Iterable[sa.Column[Any]] = (
        sa.Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable) for c in table.columns
    )
    return sa.Table(table.name + suffix, sa.MetaData(), *columns)


def reset_row_counts(conn: Connection, tables: Iterable[sa.Table]) -> None:
    """Set the fold engine's row counters (ADR 0133) from the tables themselves, in the caller's tx."""
    counts = projection_row_counts
    for table in tables:
        n = conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
        conn.execute(sa.delete(counts).where(counts.c.table_name == table.name))
        conn.execute(sa.insert(counts).values(table_name=table.name, row_count=int(n)))
