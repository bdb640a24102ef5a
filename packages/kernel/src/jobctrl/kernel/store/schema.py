"""The ``job_events`` table.

``position`` is the global order.  It only grows, and a reader that has seen position N never later
sees a newly committed row below N: on SQLite because there is one writer at a time (``BEGIN
IMMEDIATE``), on PostgreSQL because every append takes ``LOCK TABLE job_events IN EXCLUSIVE MODE``
before it draws from the sequence, so sequence order is commit order (ADR 0003).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

# SQLite only aliases the rowid (and so only autoincrements) for a column typed exactly INTEGER.
PositionType = BigInteger().with_variant(Integer(), "sqlite")

job_events = Table(
    "job_events",
    metadata,
    Column("position", PositionType, primary_key=True, autoincrement=True),
    Column("event_id", String(64), nullable=False),
    Column("stream_id", String(200), nullable=False),
    Column("stream_version", Integer, nullable=False),
    Column("event_type", String(100), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("tenant_id", String(64), nullable=False),
    Column("job_id", String(200), nullable=True),
    Column("occurred_at", String(40), nullable=False),
    Column("payload", Text, nullable=False),
    Column("metadata", Text, nullable=False),
    UniqueConstraint("event_id", name="uq_job_events_event_id"),
    UniqueConstraint("stream_id", "stream_version", name="uq_job_events_stream_version"),
    Index("ix_job_events_type_position", "event_type", "position"),
    Index("ix_job_events_job_id", "job_id"),
    sqlite_autoincrement=True,
)

# Snapshots of aggregate state (ADR 0005): a cache beside the log, never a source of truth.  A row is
# the state of ``stream_id`` after ``version`` events, encoded as JSON; ``snapshot_type`` names the
# aggregate class's state shape and ``state_version`` its revision, so a changed shape is never
# restored from an old row (the stream is replayed instead and a new snapshot is written).
aggregate_snapshots = Table(
    "aggregate_snapshots",
    metadata,
    Column("stream_id", String(200), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("snapshot_type", String(100), nullable=False),
    Column("state_version", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("taken_at", String(40), nullable=False),
)
