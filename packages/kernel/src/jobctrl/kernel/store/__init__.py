"""The append-only ``job_events`` log on SQLAlchemy 2 Core (SQLite WAL or PostgreSQL)."""

from jobctrl.kernel.store.database import Database, database_url_from_env, open_database
from jobctrl.kernel.store.errors import ConcurrencyConflict, IdempotencyConflict, PayloadTooLarge
from jobctrl.kernel.store.event_store import AppendRequest, AppendResult, EventStore, WriteTransaction
from jobctrl.kernel.store.schema import job_events, metadata

__all__ = [
    "AppendRequest",
    "AppendResult",
    "ConcurrencyConflict",
    "Database",
    "EventStore",
    "IdempotencyConflict",
    "PayloadTooLarge",
    "WriteTransaction",
    "database_url_from_env",
    "job_events",
    "metadata",
    "open_database",
]
