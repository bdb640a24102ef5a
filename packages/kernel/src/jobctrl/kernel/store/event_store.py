"""Appending to and reading from ``job_events``.

``append`` is all-or-nothing.  It validates every event against its registry schema and size limit
before touching the database, so bad input writes nothing.  A stream-version clash raises
``ConcurrencyConflict``; a batch whose event ids are all stored already is an idempotent retry and
returns the stored positions without writing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import Connection, bindparam, func, insert, select, text
from sqlalchemy.exc import IntegrityError

from jobctrl.kernel.events import NewEvent, StoredEvent
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.errors import ConcurrencyConflict, IdempotencyConflict, PayloadTooLarge
from jobctrl.kernel.store.schema import job_events, metadata

DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024
NOTIFY_CHANNEL = "job_events"

_COLUMNS = (
    job_events.c.position,
    job_events.c.stream_id,
    job_events.c.stream_version,
    job_events.c.event_id,
    job_events.c.event_type,
    job_events.c.schema_version,
    job_events.c.tenant_id,
    job_events.c.occurred_at,
    job_events.c.payload,
    job_events.c.metadata,
)
_meta_encoder = msgspec.json.Encoder()


@dataclass(frozen=True)
class AppendRequest:
    stream_id: str
    expected_version: int | None
    events: Sequence[NewEvent]


@dataclass(frozen=True)
class AppendResult:
    stream_id: str
    positions: tuple[int, ...]
    stream_version: int
    idempotent_replay: bool = False

    @property
    def last_position(self) -> int:
        return self.positions[-1] if self.positions else 0


def _row_from(record: Any) -> StoredEvent:
    return StoredEvent(
        position=record[0],
        stream_id=record[1],
        stream_version=record[2],
        event_id=record[3],
        event_type=record[4],
        schema_version=record[5],
        tenant_id=record[6],
        occurred_at=record[7],
        payload=record[8].encode(),
        metadata=record[9].encode(),
    )


class WriteTransaction:
    """One unit of work: appends to several streams (and any other writes on ``conn``) commit together."""

    def __init__(self, store: EventStore, conn: Connection) -> None:
        self._store = store
        self.conn = conn
        self._locked = False
        self.last_position = 0

    def append(
        self, stream_id: str, expected_version: int | None, events: Sequence[NewEvent]
    ) -> AppendResult:
        result = self._store._append_in(self, AppendRequest(stream_id, expected_version, events))
        self.last_position = max(self.last_position, result.last_position)
        return result

    def _lock(self) -> None:
        if not self._locked and self._store.db.is_postgres:
            # Serialise writers so sequence order equals commit order (see schema.py).
            self.conn.exec_driver_sql("LOCK TABLE job_events IN EXCLUSIVE MODE")
        self._locked = True


class EventStore:
    def __init__(
        self, db: Database, registry: EventRegistry, *, max_payload_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES
    ) -> None:
        self.db = db
        self.registry = registry
        self.max_payload_bytes = max_payload_bytes

    # -- schema -----------------------------------------------------------------------------------
    def create_schema(self) -> None:
        metadata.create_all(self.db.engine, tables=[job_events])

    # -- writing ----------------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[WriteTransaction]:
        with self.db.write() as conn:
            tx = WriteTransaction(self, conn)
            yield tx
            if tx.last_position and self.db.is_postgres:
                conn.execute(
                    text("SELECT pg_notify(:c, :p)"), {"c": NOTIFY_CHANNEL, "p": str(tx.last_position)}
                )

    def append(
        self, stream_id: str, expected_version: int | None, events: Sequence[NewEvent]
    ) -> AppendResult:
        return self.append_batch([AppendRequest(stream_id, expected_version, events)])[0]

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]:
        """Append to several streams atomically (related facts commit together)."""
        for request in requests:  # validate everything before opening a transaction
            self._encode(request.events)
        with self.transaction() as tx:
            return [tx.append(r.stream_id, r.expected_version, r.events) for r in requests]

    def _encode(self, events: Sequence[NewEvent]) -> list[tuple[str, bytes, bytes]]:
        encoded = []
        for new in events:
            payload = self.registry.validate(new.event)
            if len(payload) > self.max_payload_bytes:
                raise PayloadTooLarge(new.event.event_type, len(payload), self.max_payload_bytes)
            encoded.append((new.event.event_type, payload, _meta_encoder.encode(new.metadata)))
        return encoded

    def _append_in(self, tx: WriteTransaction, request: AppendRequest) -> AppendResult:
        stream_id, events = request.stream_id, request.events
        if not events:
            raise ValueError("append needs at least one event")
        encoded = self._encode(events)
        tx._lock()
        conn = tx.conn
        ids = [e.event_id for e in events]
        if len(set(ids)) != len(ids):
            raise IdempotencyConflict("a batch repeats an event id")
        existing = dict(
            conn.execute(
                select(job_events.c.event_id, job_events.c.position).where(
                    job_events.c.event_id.in_(bindparam("ids", expanding=True))
                ),
                {"ids": ids},
            ).all()
        )
        if existing:
            if len(existing) != len(ids):
                raise IdempotencyConflict(f"{len(existing)} of {len(ids)} event ids are already stored")
            positions = tuple(existing[i] for i in ids)
            version = conn.execute(
                select(func.max(job_events.c.stream_version)).where(job_events.c.stream_id == stream_id)
            ).scalar_one()
            return AppendResult(stream_id, positions, version or 0, idempotent_replay=True)
        current = (
            conn.execute(
                select(func.max(job_events.c.stream_version)).where(job_events.c.stream_id == stream_id)
            ).scalar_one()
            or 0
        )
        if request.expected_version is not None and request.expected_version != current:
            raise ConcurrencyConflict(stream_id, request.expected_version, current)
        rows = [
            {
                "event_id": new.event_id,
                "stream_id": stream_id,
                "stream_version": current + i,
                "event_type": event_type,
                "schema_version": type(new.event).schema_version,
                "tenant_id": new.tenant_id,
                "job_id": getattr(new.event, "job_id", None),
                "occurred_at": new.occurred_at,
                "payload": payload.decode(),
                "metadata": meta.decode(),
            }
            for i, (new, (event_type, payload, meta)) in enumerate(zip(events, encoded, strict=True), start=1)
        ]
        try:
            conn.execute(insert(job_events), rows)
        except IntegrityError as exc:  # a writer that bypassed the lock; the constraint is the backstop
            raise ConcurrencyConflict(stream_id, request.expected_version, current) from exc
        positions = tuple(
            conn.execute(
                select(job_events.c.position)
                .where(job_events.c.stream_id == stream_id, job_events.c.stream_version > current)
                .order_by(job_events.c.stream_version)
            ).scalars()
        )
        return AppendResult(stream_id, positions, current + len(events))

    # -- reading ----------------------------------------------------------------------------------
    def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .where(job_events.c.stream_id == stream_id, job_events.c.stream_version > after_version)
                .order_by(job_events.c.stream_version)
            ).all()
        return [_row_from(r) for r in rows]

    def read_all(
        self, after: int = 0, limit: int = 1000, types: Sequence[str] | None = None
    ) -> list[StoredEvent]:
        with self.db.read() as conn:
            return self.read_all_in(conn, after=after, limit=limit, types=types)

    def read_all_in(
        self, conn: Connection, after: int = 0, limit: int = 1000, types: Sequence[str] | None = None
    ) -> list[StoredEvent]:
        query = select(*_COLUMNS).where(job_events.c.position > after)
        if types is not None:
            query = query.where(job_events.c.event_type.in_(list(types)))
        rows = conn.execute(query.order_by(job_events.c.position).limit(limit)).all()
        return [_row_from(r) for r in rows]

    def head_position(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.coalesce(func.max(job_events.c.position), 0))).scalar_one())

    def stream_version(self, stream_id: str) -> int:
        with self.db.read() as conn:
            value = conn.execute(
                select(func.max(job_events.c.stream_version)).where(job_events.c.stream_id == stream_id)
            ).scalar_one()
        return int(value or 0)
