"""Fast row I/O for the fold engine, on the DBAPI cursor under SQLAlchemy's connection.

The fold's hot path moves many small rows; SQLAlchemy's per-row parameter processing cost more than
the database work, so these statements are plain SQL built once per table and dialect and executed
with tuples.  Rows come back as tuples in column order, which is the field order of the row Struct
(``ReadModelTable.check_shape`` holds it).  Note: SQLite hands booleans back as 0/1; folds only test
them for truth, and every read outside the engine goes through SQLAlchemy, which converts them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from operator import itemgetter
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import Connection

_CHUNK = 400


class TableIO:
    def __init__(self, table: sa.Table, dialect: str) -> None:
        self.table = table
        self._mark = "?" if dialect == "sqlite" else "%s"
        columns = [c.name for c in table.columns]
        self.pk_index = [columns.index(c.name) for c in table.primary_key.columns]
        self._pk_names = [c.name for c in table.primary_key.columns]
        # itemgetter of one index gives the scalar, of several the tuple: the engine's key shapes.
        self._key_getter = itemgetter(*self.pk_index)
        names = ", ".join(columns)
        marks = ", ".join(self._mark for _ in columns)
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in self._pk_names)
        self.upsert_sql = (
            f"INSERT INTO {table.name} ({names}) VALUES ({marks}) "
            f"ON CONFLICT ({', '.join(self._pk_names)}) DO UPDATE SET {updates}"
        )
        self._select = f"SELECT {names} FROM {table.name} WHERE "
        on = " AND ".join(f"t.{c} = k.column{i}" for i, c in enumerate(self._pk_names, start=1))
        self._join_select = (
            f"SELECT {', '.join('t.' + c for c in columns)} FROM (VALUES {{keys}}) AS k "
            f"JOIN {table.name} AS t ON {on}"
        )
        self.delete_sql = f"DELETE FROM {table.name} WHERE " + " AND ".join(
            f"{c} = {self._mark}" for c in self._pk_names
        )

    def key_of(self, row: Sequence[Any]) -> Hashable:
        key: Hashable = self._key_getter(row)
        return key

    def load(self, conn: Connection, keys: Sequence[Hashable]) -> list[tuple[Any, ...]]:
        cursor = conn.connection.cursor()
        found: list[tuple[Any, ...]] = []
        try:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                if len(self._pk_names) == 1:
                    where = f"{self._pk_names[0]} IN ({', '.join(self._mark for _ in chunk)})"
                    params: list[Any] = list(chunk)
                    sql = self._select + where
                else:
                    # A join against the key list: SQLite scans the whole table for a row-value IN,
                    # but searches the primary key for each joined key.
                    one = "(" + ", ".join(self._mark for _ in self._pk_names) + ")"
                    sql = self._join_select.format(keys=", ".join(one for _ in chunk))
                    params = [part for key in chunk for part in cast(tuple[Any, ...], key)]
                cursor.execute(sql, params)
                found.extend(cursor.fetchall())
        finally:
            cursor.close()
        return found

    def upsert(self, conn: Connection, rows: list[tuple[Any, ...]]) -> None:
        cursor = conn.connection.cursor()
        try:
            cursor.executemany(self.upsert_sql, rows)
        finally:
            cursor.close()

    def delete(self, conn: Connection, keys: list[Hashable]) -> None:
        params = [(k,) if len(self._pk_names) == 1 else cast(tuple[Any, ...], k) for k in keys]
        cursor = conn.connection.cursor()
        try:
            cursor.executemany(self.delete_sql, params)
        finally:
            cursor.close()
