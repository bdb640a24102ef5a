"""The append-only ``job_events`` log on SQLAlchemy 2 Core (SQLite WAL or PostgreSQL)."""

from jobctrl.kernel.store.database import Database, database_url_from_env, open_database
from jobctrl.kernel.store.errors import ConcurrencyConflict, IdempotencyConflict, PayloadTooLarge
from jobctrl.kernel.store.event_store import (
    AppendRequest,
    AppendResult,
    EncodedEvent,
    EventStore,
    WriteTransaction,
)
from jobctrl.kernel.store.schema import aggregate_snapshots, job_events, metadata

__all__ = [
    "AppendRequest",
    "AppendResult",
    "ConcurrencyConflict",
    "Database",
    "EncodedEvent",
    "EventStore",
    "IdempotencyConflict",
    "PayloadTooLarge",
    "WriteTransaction",
    "aggregate_snapshots",
    "database_url_from_env",
    "job_events",
    "metadata",
    "open_database",
]
