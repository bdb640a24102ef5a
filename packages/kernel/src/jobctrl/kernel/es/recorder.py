"""Recorders: the library's persistence port, implemented over ``job_events`` and ``aggregate_snapshots``.

``JobEventsRecorder.insert_events`` is the only write path the library uses.  It hands the mapped
rows to ``EventStore``'s append, so every guarantee of the store holds for aggregates too: one
transaction for the whole save (or the caller's ``WriteTransaction``), optimistic concurrency per
stream (``ConcurrencyConflict``, which is also the library's ``IntegrityError``), idempotent replay of
stored event ids, and position order equal to commit order.  The envelope the library has no notion of
(tenant, occurred-at, correlation/causation ids, Temporal workflow id, run id and attempt) travels in a
``SaveContext`` passed through ``Application.save(..., jobctrl=context)``, which the library forwards
to the recorder untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    Notification,
    StoredEvent,
    Subscription,
)
from sqlalchemy import ColumnElement, Connection, Select, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from jobctrl.kernel.clock import now_iso
from jobctrl.kernel.es.mapper import JobStoredEvent
from jobctrl.kernel.events import EventMetadata
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store.encoding import EncodedEvent
from jobctrl.kernel.store.event_store import AppendResult, EventStore, WriteTransaction
from jobctrl.kernel.store.schema import aggregate_snapshots, job_events

_meta_encoder = msgspec.json.Encoder()


@dataclass
class SaveContext:
    """What one save adds to its events, and what it reports back."""

    occurred_at: str
    tenant_id: str = LOCAL_TENANT
    metadata: dict[str, Any] = field(default_factory=dict)
    tx: WriteTransaction | None = None
    snapshots: list[StoredEvent] = field(default_factory=list)
    snapshot_type: str = ""
    snapshot_state_version: int = 1
    taken_at: str = ""
    results: list[AppendResult] = field(default_factory=list)


_COLUMNS = (
    job_events.c.position,
    job_events.c.stream_id,
    job_events.c.stream_version,
    job_events.c.event_type,
    job_events.c.payload,
    job_events.c.event_id,
    job_events.c.schema_version,
    job_events.c.tenant_id,
    job_events.c.occurred_at,
    job_events.c.metadata,
)


_SELECT_STREAM = (
    "SELECT position, stream_id, stream_version, event_type, payload, event_id, schema_version,"
    " tenant_id, occurred_at, metadata FROM job_events WHERE stream_id = "
)


def _stored(row: Any) -> JobStoredEvent:
    return JobStoredEvent(
        originator_id=row[1],
        originator_version=row[2],
        topic=row[3],
        state=row[4].encode(),
        event_id=row[5],
        schema_version=row[6],
        position=row[0],
        tenant_id=row[7],
        occurred_at=row[8],
        metadata=row[9].encode(),
    )


class JobEventsRecorder(ApplicationRecorder):
    def __init__(self, store: EventStore) -> None:
        self.store = store

    # -- writing ----------------------------------------------------------------------------------
    def insert_events(
        self, stored_events: Sequence[StoredEvent], *, jobctrl: SaveContext | None = None, **_: Any
    ) -> Sequence[int] | None:
        ctx = jobctrl or SaveContext(occurred_at=now_iso())
        runs = self._encode(stored_events, ctx)  # everything encoded before the transaction opens
        if ctx.tx is not None:
            return self._write(ctx.tx, runs, ctx)
        with self.store.transaction() as tx:
            return self._write(tx, runs, ctx)

    def _encode(
        self, stored_events: Sequence[StoredEvent], ctx: SaveContext
    ) -> list[tuple[str, int, list[EncodedEvent]]]:
        # Consecutive events of one stream are one append (one aggregate's pending events); the
        # version the aggregate was loaded at is the expected version.
        runs: list[tuple[str, int, list[EncodedEvent]]] = []
        for s in stored_events:
            if not isinstance(s, JobStoredEvent):
                raise TypeError("JobEventsRecorder stores rows made by JobEventsMapper")
            stream_id = str(s.originator_id)
            meta = _meta_encoder.encode(EventMetadata(event_id=s.event_id, **ctx.metadata)).decode()
            row: EncodedEvent = (
                s.event_id,
                s.topic,
                s.schema_version,
                ctx.tenant_id,
                s.job_id,
                ctx.occurred_at,
                s.state.decode(),
                meta,
            )
            if (
                runs
                and runs[-1][0] == stream_id
                and runs[-1][1] + len(runs[-1][2]) == s.originator_version - 1
            ):
                runs[-1][2].append(row)
            else:
                runs.append((stream_id, s.originator_version - 1, [row]))
        return runs

    def _write(
        self, tx: WriteTransaction, runs: list[tuple[str, int, list[EncodedEvent]]], ctx: SaveContext
    ) -> list[int]:
        positions: list[int] = []
        for stream_id, expected, rows in runs:
            result = tx.append_encoded(stream_id, expected, rows)
            ctx.results.append(result)
            positions.extend(result.positions)
        if ctx.snapshots:
            write_snapshots(
                tx.conn, ctx.snapshots, ctx.snapshot_type, ctx.snapshot_state_version, ctx.taken_at
            )
        return positions

    # -- reading ----------------------------------------------------------------------------------
    def select_events(
        self,
        originator_id: Any,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        # The hot read of every aggregate load: plain SQL on the driver (ADR 0375), the same window
        # as ``version_window`` spells for SQLAlchemy.
        db = self.store.db
        m = db.mark
        params: list[object]
        sql, params = _SELECT_STREAM + m, [str(originator_id)]
        if gt is not None:
            sql += f" AND stream_version > {m}"
            params.append(gt)
        if lte is not None:
            sql += f" AND stream_version <= {m}"
            params.append(lte)
        sql += " ORDER BY stream_version DESC" if desc else " ORDER BY stream_version"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [_stored(r) for r in db.fetch(sql, params)]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        query = select(*_COLUMNS)
        if start is not None:
            query = query.where(
                job_events.c.position >= start if inclusive_of_start else job_events.c.position > start
            )
        if stop is not None:
            query = query.where(job_events.c.position <= stop)
        if topics:
            query = query.where(job_events.c.event_type.in_(list(topics)))
        query = query.order_by(job_events.c.position).limit(limit)
        with self.store.db.read() as conn:
            return [
                Notification(
                    id=r[0], originator_id=r[1], originator_version=r[2], topic=r[3], state=r[4].encode()
                )
                for r in conn.execute(query)
            ]

    def max_notification_id(self) -> int | None:
        return self.store.head_position() or None

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        # One reader follows the log: the projection runner (``jobctrl.projections``), never a
        # library subscription (issue 11, ADR 0120).
        raise NotImplementedError("follow job_events with jobctrl.projections.ProjectionRunner")


def version_window(
    query: Select[Any],
    version: ColumnElement[Any],
    *,
    gt: int | None,
    lte: int | None,
    desc: bool,
    limit: int | None,
) -> Select[Any]:
    """The slice of one stream's versions that ``select_events`` is asked for: above ``gt``, up to
    ``lte``, in version order (newest first when ``desc``), at most ``limit`` rows."""
    if gt is not None:
        query = query.where(version > gt)
    if lte is not None:
        query = query.where(version <= lte)
    query = query.order_by(version.desc() if desc else version)
    return query if limit is None else query.limit(limit)


def write_snapshots(
    conn: Connection, snapshots: Sequence[StoredEvent], snapshot_type: str, state_version: int, taken_at: str
) -> None:
    rows = [
        {
            "stream_id": str(s.originator_id),
            "version": s.originator_version,
            "snapshot_type": snapshot_type,
            "state_version": state_version,
            "state": s.state.decode(),
            "taken_at": taken_at,
        }
        for s in snapshots
    ]
    # A retried save may meet its own snapshot: the same version of the same stream is the same state.
    dialect_insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    conn.execute(dialect_insert(aggregate_snapshots).on_conflict_do_nothing(), rows)


class SnapshotRecorder(AggregateRecorder):
    """``aggregate_snapshots`` for one snapshot type and state version (others are invisible)."""

    def __init__(self, store: EventStore, snapshot_type: str, state_version: int) -> None:
        self.store = store
        self.snapshot_type = snapshot_type
        self.state_version = state_version

    def insert_events(self, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        with self.store.db.write() as conn:
            write_snapshots(conn, stored_events, self.snapshot_type, self.state_version, now_iso())
        return None

    def select_events(
        self,
        originator_id: Any,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        t = aggregate_snapshots.c
        query = select(t.stream_id, t.version, t.snapshot_type, t.state).where(
            t.stream_id == str(originator_id),
            t.snapshot_type == self.snapshot_type,
            t.state_version == self.state_version,
        )
        query = version_window(query, t.version, gt=gt, lte=lte, desc=desc, limit=limit)
        with self.store.db.read() as conn:
            return [
                StoredEvent(originator_id=r[0], originator_version=r[1], topic=r[2], state=r[3].encode())
                for r in conn.execute(query)
            ]


__all__ = [
    "JobEventsRecorder",
    "SaveContext",
    "SnapshotRecorder",
    "write_snapshots",
]
