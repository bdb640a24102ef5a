"""Appending to and reading from ``job_events``.

``append`` is all-or-nothing.  It validates every event against its registry schema and size limit
before touching the database, so bad input writes nothing.  A stream-version clash raises
``ConcurrencyConflict``; a batch whose event ids are all stored already is an idempotent retry and
returns the stored positions without writing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import msgspec
import psycopg
from sqlalchemy import Connection, func, select, text

from jobctrl.kernel.events import NewEvent, StoredEvent
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.commits import SIGNALS, CommitCallback, log_key
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.encoding import EncodedEvent, encode_events
from jobctrl.kernel.store.errors import ConcurrencyConflict, IdempotencyConflict
from jobctrl.kernel.store.limits import check_lengths
from jobctrl.kernel.store.rows import ID_CHUNK, insert_rows, stored_positions, stream_version_in
from jobctrl.kernel.store.schema import aggregate_snapshots, job_events, metadata
from jobctrl.kernel.store.writer import DriverWriter

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


@dataclass(frozen=True)
class AppendRequest:
    stream_id: str
    expected_version: int | None
    events: Sequence[NewEvent]


class AppendResult(msgspec.Struct, frozen=True, gc=False):
    """What an append stored.  A frozen ``msgspec.Struct``: built once per append, a frozen
    dataclass's ``__init__`` (``object.__setattr__`` per field) cost 0.5 µs of it (ADR 0420).
    Untracked by the cyclic GC: it holds only text, numbers and a tuple of positions."""

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


class _DriverAppender:
    """The cursor of a pooled append's driver transaction (already begun and, on PostgreSQL, locked).
    On SQLite the kept writer plays this part itself (``DriverWriter.cursor``)."""

    # Any error ends (and rolls back) a driver transaction: no caller can go on using it.
    guarded = False

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def cursor(self) -> Any:
        return self._cursor


class WriteTransaction:
    """One unit of work: appends to several streams (and any other writes on ``conn``) commit together."""

    # The caller may catch an append's error and go on: each append must undo its own rows.
    guarded = True

    def __init__(self, store: EventStore, conn: Connection) -> None:
        self._store = store
        self.conn = conn
        self._locked = False
        self._cursor: Any = None
        self._after_commit: list[Callable[[], None]] = []
        self.last_position = 0

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once this transaction has committed (never if it rolls back)."""
        self._after_commit.append(callback)

    def append(
        self, stream_id: str, expected_version: int | None, events: Sequence[NewEvent]
    ) -> AppendResult:
        return self.append_encoded(stream_id, expected_version, self._store.encode(events))

    def append_encoded(
        self, stream_id: str, expected_version: int | None, encoded: Sequence[EncodedEvent]
    ) -> AppendResult:
        """Append events already validated by ``EventStore.encode`` (the recorder's path)."""
        result = self._store._append_in(self, stream_id, expected_version, encoded)
        self.last_position = max(self.last_position, result.last_position)
        return result

    def cursor(self) -> Any:
        """The DB-API cursor of this transaction's connection (the append hot path uses it directly)."""
        if self._cursor is None:
            if not self._locked and self._store.db.is_postgres:
                # Serialise writers so sequence order equals commit order (ADR 0003).
                self.conn.exec_driver_sql("LOCK TABLE job_events IN EXCLUSIVE MODE")
            self._locked = True
            self._cursor = self.conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        return self._cursor


class EventStore:
    def __init__(
        self,
        db: Database,
        registry: EventRegistry,
        *,
        max_payload_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES,
        notify_channel: str = NOTIFY_CHANNEL,
    ) -> None:
        self.db = db
        self.registry = registry
        self.max_payload_bytes = max_payload_bytes
        # PostgreSQL channels are per database, not per schema: stores sharing a database (tests,
        # several tenants' schemas) can keep their wake-ups apart with their own channel.
        self.notify_channel = notify_channel
        self._log_key = log_key(db.engine.url, notify_channel)
        self._postgres = db.is_postgres

    def on_commit(self, callback: CommitCallback) -> Callable[[], None]:
        """``callback(last_position)`` after each commit on this log in this process (ADR 0235)."""
        return SIGNALS.subscribe(self._log_key, callback)

    # -- schema -----------------------------------------------------------------------------------
    def create_schema(self) -> None:
        self.db.create_tables(metadata, [job_events, aggregate_snapshots])

    # -- writing ----------------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[WriteTransaction]:
        with self.db.write() as conn:
            tx = WriteTransaction(self, conn)
            yield tx
            if tx.last_position and self.db.is_postgres:
                conn.execute(
                    text("SELECT pg_notify(:c, :p)"), {"c": self.notify_channel, "p": str(tx.last_position)}
                )
        for callback in tx._after_commit:  # reached only when the block above committed
            callback()
        SIGNALS.publish(self._log_key, tx.last_position)  # nothing when nothing was appended

    def append(
        self, stream_id: str, expected_version: int | None, events: Sequence[NewEvent]
    ) -> AppendResult:
        return self._commit([(stream_id, expected_version, self.encode(events))])[0]

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]:
        """Append to several streams atomically (related facts commit together)."""
        # Validate and encode everything before opening a transaction: bad input writes nothing.
        return self._commit([(r.stream_id, r.expected_version, self.encode(r.events)) for r in requests])

    def _commit(self, work: list[tuple[str, int | None, list[EncodedEvent]]]) -> list[AppendResult]:
        """``transaction()`` without SQLAlchemy's per-transaction machinery, for appends only.

        Same checks and locking as ``Database.write`` + ``WriteTransaction``: the storage identity
        first (ADR 0102), then ``BEGIN IMMEDIATE`` on SQLite (on the database's kept writer
        connection, ADR 0231) or the EXCLUSIVE table lock and the identity row on PostgreSQL; commit
        on success, rollback on any error (ADR 0006).
        """
        db = self.db
        try:
            db.verify()  # lost storage fails closed here too (ADR 0102)
            writer = db.writer
            if writer is None:
                results = self._pooled(work)
            elif len(work) == 1:  # every ``append``: no list of results to build inside the transaction
                results = [writer.run(self._append_in, writer, *work[0])]
            else:
                results = writer.run(self._append_all, writer, work)
        except Exception as exc:
            failure = db.storage_failed(exc, writing=True)
            if failure is not None and db.writer is not None:
                db.writer.close()  # lost storage: the next append opens a fresh connection
            if failure is None or failure is exc:
                raise
            raise failure from exc
        db.identity.failure = None
        # One request (every ``append``) needs no generator; a replayed request may hold lower positions.
        last = (
            results[0].last_position
            if len(results) == 1
            else max((r.last_position for r in results), default=0)
        )
        SIGNALS.publish(self._log_key, last)
        return results

    def _append_all(
        self, tx: DriverWriter | _DriverAppender, work: list[tuple[str, int | None, list[EncodedEvent]]]
    ) -> list[AppendResult]:
        return [self._append_in(tx, stream_id, version, e) for stream_id, version, e in work]

    def _pooled(self, work: list[tuple[str, int | None, list[EncodedEvent]]]) -> list[AppendResult]:
        pooled = self.db.engine.raw_connection()
        try:
            driver: Any = pooled.driver_connection
            cur = driver.cursor()
            try:
                if self._postgres:
                    cur.execute("LOCK TABLE job_events IN EXCLUSIVE MODE")  # ADR 0003
                    self.db.check_identity_cursor(cur)
                else:
                    cur.execute("BEGIN IMMEDIATE")
                results = self._append_all(_DriverAppender(cur), work)
                last = max((r.last_position for r in results), default=0)
                if last and self._postgres:
                    cur.execute("SELECT pg_notify(%s, %s)", (self.notify_channel, str(last)))
            except BaseException:
                driver.rollback()
                raise
            driver.commit()
            return results
        finally:
            pooled.close()

    def encode(self, events: Sequence[NewEvent]) -> list[EncodedEvent]:
        """Validate every event against its registry schema and the size limit, and encode it."""
        return encode_events(self.registry, self.max_payload_bytes, events)

    def _append_in(
        self,
        tx: WriteTransaction | DriverWriter | _DriverAppender,
        stream_id: str,
        expected_version: int | None,
        encoded: Sequence[EncodedEvent],
    ) -> AppendResult:
        if not encoded:
            raise ValueError("append needs at least one event")
        check_lengths(stream_id, encoded)  # before any SQL: an over-long id writes nothing
        cur = tx.cursor()
        mark = "%s" if self._postgres else "?"
        # The savepoint keeps "writes nothing" true even for a caller that catches the error and
        # goes on using its transaction: a refused batch leaves none of its rows behind.  On
        # PostgreSQL it also keeps the transaction usable for the diagnosis below.  A SQLite driver
        # transaction needs neither: an error raised from here rolls all of it back.
        guard = tx.guarded or self._postgres
        if expected_version == 0 and (guard or len(encoded) == 1):
            # A new stream needs no probe (ADR 0355): versions are contiguous from 1, so the unique
            # constraints refuse both a stream that has events (its version 1) and a retry (its
            # first event id), and the diagnosis below tells which.  It can tell only if the refused
            # insert left no row of its own: one row, or rows rolled back to the savepoint.
            probed, current = False, 0
        else:
            # A retry repeats its first event: one probe tells a fresh batch from a replay.  A batch
            # whose *later* ids are stored is caught by the unique constraint below and diagnosed then.
            cur.execute(
                f"SELECT (SELECT 1 FROM job_events WHERE event_id = {mark}),"
                f" (SELECT MAX(stream_version) FROM job_events WHERE stream_id = {mark})",
                (encoded[0][0], stream_id),
            )
            first_stored, current = cur.fetchone()
            if first_stored is not None:
                return self._replay(cur, mark, stream_id, encoded)
            probed, current = True, current or 0
            if expected_version is not None and expected_version != current:
                raise ConcurrencyConflict(stream_id, expected_version, current)
        # Each row is the encoded tuple + (stream, version), in the insert's column order (rows.py).
        rows: list[tuple[Any, ...]]
        if len(encoded) == 1:
            rows = [encoded[0] + (stream_id, current + 1)]
        else:
            versions = zip(repeat(stream_id), range(current + 1, current + 1 + len(encoded)))
            rows = list(map(tuple.__add__, encoded, versions))
        if guard:
            cur.execute("SAVEPOINT jobctrl_append")
        try:
            positions = insert_rows(cur, self._postgres, rows)
        except (sqlite3.IntegrityError, psycopg.errors.IntegrityError) as exc:
            if guard:
                cur.execute("ROLLBACK TO SAVEPOINT jobctrl_append")
                cur.execute("RELEASE SAVEPOINT jobctrl_append")
            stored = stored_positions(cur, mark, [e[0] for e in encoded])
            if not probed and len(stored) == len(encoded):
                # Every id stored before this insert: the retry the probe would have found.
                return self._replayed(cur, mark, stream_id, encoded, stored)
            if stored:
                raise IdempotencyConflict(
                    f"{len(stored)} of {len(encoded)} event ids are already stored"
                ) from exc
            if not probed:
                current = stream_version_in(cur, mark, stream_id)
                if current == expected_version:
                    raise  # not a version clash: some other constraint refused the rows
            raise ConcurrencyConflict(stream_id, expected_version, current) from exc  # lock bypassed
        if guard:
            cur.execute("RELEASE SAVEPOINT jobctrl_append")
        return AppendResult(stream_id, positions, current + len(rows))

    def _replay(self, cur: Any, mark: str, stream_id: str, encoded: Sequence[EncodedEvent]) -> AppendResult:
        """Every id stored: an idempotent retry, answered with the stored positions.  Some: a conflict."""
        ids = [e[0] for e in encoded]
        stored = stored_positions(cur, mark, ids)
        if len(stored) != len(ids):
            raise IdempotencyConflict(f"{len(stored)} of {len(ids)} event ids are already stored")
        return self._replayed(cur, mark, stream_id, encoded, stored)

    def _replayed(
        self, cur: Any, mark: str, stream_id: str, encoded: Sequence[EncodedEvent], stored: dict[str, int]
    ) -> AppendResult:
        positions = tuple(stored[e[0]] for e in encoded)
        return AppendResult(
            stream_id, positions, stream_version_in(cur, mark, stream_id), idempotent_replay=True
        )

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

    def read_jobs(self, job_ids: Sequence[str], types: Sequence[str]) -> list[StoredEvent]:
        """The events of ``types`` about these jobs, in log order, through the ``job_id`` index: a
        read bounded by the jobs asked about, not by the log (ADR 0309)."""
        ids = list(dict.fromkeys(job_ids))
        found: list[StoredEvent] = []
        with self.db.read() as conn:
            for start in range(0, len(ids), ID_CHUNK):
                query = select(*_COLUMNS).where(
                    job_events.c.job_id.in_(ids[start : start + ID_CHUNK]),
                    job_events.c.event_type.in_(list(types)),
                )
                found.extend(_row_from(r) for r in conn.execute(query).all())
        return sorted(found, key=lambda e: e.position)

    def head_position(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.coalesce(func.max(job_events.c.position), 0))).scalar_one())

    def stream_version(self, stream_id: str) -> int:
        with self.db.read() as conn:
            value = conn.execute(
                select(func.max(job_events.c.stream_version)).where(job_events.c.stream_id == stream_id)
            ).scalar_one()
        return int(value or 0)
