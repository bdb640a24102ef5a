"""``jobctrl projections dump NAME``: one read model's rows as JSON objects.

Keys are camelCase, rows come in primary-key order, times are the ISO-8601 UTC strings the folds
stored, and ``*_json`` columns are emitted as the JSON they hold (under the name without ``_json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.store.database import Database
from jobctrl.projections.coverage import OPERATIONS, UnknownProjection
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import Projection, ReadModelTable


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def read_model_table(name: str, projections: Sequence[Projection] = OPERATIONS) -> ReadModelTable[Any]:
    """A table by its table name, or by the name of a projection that has exactly one table."""
    for projection in projections:
        for table in projection.tables:
            if table.name == name:
                return table
        if projection.name == name and len(projection.tables) == 1:
            return projection.tables[0]
    known = ", ".join(t.name for p in projections for t in p.tables)
    raise UnknownProjection(f"no read model named {name[:60]!r} (known: {known})")


def dump_rows(
    db: Database, name: str, projections: Sequence[Projection] = OPERATIONS
) -> list[dict[str, Any]]:
    table = read_model_table(name, projections).table
    migrate(db)
    keys: list[tuple[str, str, bool]] = []
    for column in table.columns:
        is_json = column.name.endswith("_json")
        keys.append((column.name, camel(column.name[: -len("_json")] if is_json else column.name), is_json))
    out: list[dict[str, Any]] = []
    with db.read() as conn:
        for row in conn.execute(sa.select(table).order_by(*table.primary_key.columns)):
            mapping = row._mapping
            out.append(
                {
                    key: (
                        msgspec.json.decode(mapping[col])
                        if is_json and mapping[col] is not None
                        else mapping[col]
                    )
                    for col, key, is_json in keys
                }
            )
    return out


def dump_json(db: Database, name: str, projections: Sequence[Projection] = OPERATIONS) -> str:
    return msgspec.json.format(msgspec.json.encode(dump_rows(db, name, projections)), indent=2).decode()
