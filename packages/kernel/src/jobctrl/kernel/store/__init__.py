"""The append-only ``job_events`` log on SQLAlchemy 2 Core (SQLite WAL or PostgreSQL)."""

from jobctrl.kernel.store.database import (
    Database,
    StorageIdentity,
    database_identity,
    database_url_from_env,
    identity_marker,
    open_database,
    storage_failure,
)
from jobctrl.kernel.store.encoding import EncodedEvent
from jobctrl.kernel.store.errors import ConcurrencyConflict, IdempotencyConflict, IdTooLong, PayloadTooLarge
from jobctrl.kernel.store.event_store import (
    AppendRequest,
    AppendResult,
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
    "IdTooLong",
    "IdempotencyConflict",
    "PayloadTooLarge",
    "StorageIdentity",
    "WriteTransaction",
    "aggregate_snapshots",
    "database_identity",
    "database_url_from_env",
    "identity_marker",
    "job_events",
    "metadata",
    "open_database",
    "storage_failure",
]
