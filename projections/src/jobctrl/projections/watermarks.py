"""Named watermarks in ``projection_watermarks``.

Advancing is a compare-and-swap (``UPDATE … WHERE position = expected``) done first in the fold
transaction: it takes the row lock, so two runners can never both fold the same batch, and a batch
whose watermark moved underneath it (a concurrent runner, a rebuild swap) is rolled back whole.

Beside each watermark, ``<name>#replaced`` counts the rebuild swaps that replaced rows under it
(``bump_replaced``, in the swap's transaction).  A full rebuild can leave the position where it was
and a partial one always does, so a runner that keeps rows between its own transactions compares
this count, not the position, to know that nobody else rewrote them (ADR 0400).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.projections.schema import projection_watermarks as wm
from jobctrl.projections.sqlutil import insert_ignore_statement


def ensure_watermark(conn: Connection, name: str) -> None:
    conn.execute(insert_ignore_statement(conn, wm), [{"name": name, "position": 0}])


def replaced_name(name: str) -> str:
    """The row counting the rebuild swaps under watermark ``name`` (ADR 0400)."""
    return f"{name}#replaced"


def read_replaced(conn: Connection, name: str) -> int:
    """How many rebuild swaps replaced rows under watermark ``name`` (0 before the first)."""
    return read_watermark(conn, replaced_name(name))


def bump_replaced(conn: Connection, name: str) -> None:
    """Count one more row replacement under watermark ``name``, in the caller's (swap) transaction."""
    ensure_watermark(conn, replaced_name(name))
    conn.execute(sa.update(wm).where(wm.c.name == replaced_name(name)).values(position=wm.c.position + 1))


def read_watermark(conn: Connection, name: str) -> int:
    value = conn.execute(sa.select(wm.c.position).where(wm.c.name == name)).scalar_one_or_none()
    return int(value or 0)


def advance_watermark(conn: Connection, name: str, expected: int, new: int) -> bool:
    result = conn.execute(
        sa.update(wm).where(wm.c.name == name, wm.c.position == expected).values(position=new)
    )
    return result.rowcount == 1


def set_watermark(conn: Connection, name: str, new: int) -> None:
    conn.execute(sa.update(wm).where(wm.c.name == name).values(position=new))
