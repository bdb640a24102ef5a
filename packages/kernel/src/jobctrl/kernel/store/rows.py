"""The append path's statements on a DB-API cursor: the insert and the lookups that diagnose a refusal.

Plain SQL for the hot path: one statement per step, no per-row SQLAlchemy work (ADR 0006).  ``mark``
is the driver's placeholder (``?`` for sqlite3, ``%s`` for psycopg).
"""

from __future__ import annotations

from typing import Any

# The columns in ``EncodedEvent``'s order, then the stream and its version: a row is the encoded
# event's tuple plus ``(stream_id, stream_version)``, one C-level concatenation (ADR 0364).
_INSERT_SQL = (
    "INSERT INTO job_events (event_id, event_type, schema_version, tenant_id, job_id, occurred_at,"
    " payload, metadata, stream_id, stream_version) VALUES ({})"
)
_SQLITE_INSERT = _INSERT_SQL.format(", ".join("?" * 10))
_PG_INSERT = _INSERT_SQL.format(", ".join(["%s"] * 10)) + " RETURNING position"
ID_CHUNK = 500  # well under SQLite's bound-parameter limit


def insert_rows(cur: Any, postgres: bool, rows: list[tuple[Any, ...]]) -> tuple[int, ...]:
    """Insert ``rows`` (in the column order of ``_INSERT_SQL``) and return their positions in order."""
    if len(rows) == 1:
        # One row: a plain execute, its position from RETURNING or the cursor's lastrowid
        # (``executemany`` leaves lastrowid unset), so no second statement (ADR 0355).
        cur.execute(_PG_INSERT if postgres else _SQLITE_INSERT, rows[0])
        return (cur.fetchone()[0],) if postgres else (cur.lastrowid,)
    if postgres:
        # One pipelined statement per row; RETURNING gives each row's position in order.
        cur.executemany(_PG_INSERT, rows, returning=True)
        positions = []
        while True:
            positions.append(cur.fetchone()[0])
            if not cur.nextset():
                break
        return tuple(positions)
    cur.executemany(_SQLITE_INSERT, rows)
    # One writer holds the database (BEGIN IMMEDIATE) and AUTOINCREMENT hands out max+1 per
    # row, so this batch took the contiguous range ending at last_insert_rowid().
    cur.execute("SELECT last_insert_rowid()")
    last = cur.fetchone()[0]
    return tuple(range(last - len(rows) + 1, last + 1))


def stored_positions(cur: Any, mark: str, ids: list[str]) -> dict[str, int]:
    """The stored position of each of ``ids`` that is stored already."""
    stored: dict[str, int] = {}
    for start in range(0, len(ids), ID_CHUNK):
        chunk = ids[start : start + ID_CHUNK]
        marks = ", ".join([mark] * len(chunk))
        cur.execute(f"SELECT event_id, position FROM job_events WHERE event_id IN ({marks})", chunk)
        stored.update(cur.fetchall())
    return stored


def stream_version_in(cur: Any, mark: str, stream_id: str) -> int:
    """The stream's current version (0 for a stream with no events)."""
    cur.execute(f"SELECT MAX(stream_version) FROM job_events WHERE stream_id = {mark}", (stream_id,))
    return int(cur.fetchone()[0] or 0)
