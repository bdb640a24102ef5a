"""A log and its read models beside a fixture recorded by the code before a change (the compatibility
tests of issue 11: a rebuild of an old log equals its read models, and the new writers append what
the old ones did).  Rows are compared as plain dicts, booleans as integers (SQLite and PostgreSQL
answer them differently), in primary-key order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.schema import job_events

#: the log columns a recorded row is compared on (the event id is fresh per append)
LOG_COLUMNS = (
    "position", "stream_id", "stream_version", "event_type", "schema_version", "tenant_id", "job_id",
    "occurred_at", "payload",
)  # fmt: skip


def load_fixture(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


def open_store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


def plain(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


def table_rows(database: Database, table: sa.Table) -> list[dict[str, Any]]:
    with database.read() as conn:
        rows = conn.execute(sa.select(table).order_by(*table.primary_key.columns)).all()
    return [{k: plain(v) for k, v in r._mapping.items()} for r in rows]


def recorded_rows(fixture: dict[str, Any], table: sa.Table) -> list[dict[str, Any]]:
    keys = [c.name for c in table.primary_key.columns]
    rows = [{k: plain(v) for k, v in r.items()} for r in fixture[table.name]]
    return sorted(rows, key=lambda r: tuple(r[k] for k in keys))


def log_rows(database: Database) -> list[dict[str, Any]]:
    with database.read() as conn:
        rows = conn.execute(sa.select(job_events).order_by(job_events.c.position)).all()
    return [dict(r._mapping) for r in rows]
