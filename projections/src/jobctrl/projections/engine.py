"""Folding one batch of log rows into read-model tables, inside the caller's transaction.

Per batch: decode the events that some fold handles (msgspec, through the registry), collect the
keys they touch, load those rows with one query per table, run the pure folds in log order in
memory, then write the changed rows with one ``executemany`` upsert per table.  An event that cannot
be decoded is skipped and reported (position and reason); it never reaches a fold, so nothing of it
is half-applied.  Unknown payload keys are dropped by the decoder and never reach a read model.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import msgspec
import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.kernel.registry import EventRegistry, EventValidationError, UnknownEventType
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections.model import EventInfo, Fold, Projection
from jobctrl.projections.schema import projection_skipped_events
from jobctrl.projections.sqlutil import insert_ignore_statement, key_of, load_rows, upsert_statement

REASON_LIMIT = 500

# The columns a fold needs, in this order (see ``LogRow``).
LOG_COLUMNS = (
    job_events.c.position,
    job_events.c.event_type,
    job_events.c.schema_version,
    job_events.c.tenant_id,
    job_events.c.occurred_at,
    job_events.c.payload,
    job_events.c.metadata,
)
LogRow = tuple[int, str, int, str, str, str, str]


def read_log(conn: Connection, after: int, limit: int, up_to: int | None = None) -> list[LogRow]:
    query = sa.select(*LOG_COLUMNS).where(job_events.c.position > after)
    if up_to is not None:
        query = query.where(job_events.c.position <= up_to)
    rows = conn.execute(query.order_by(job_events.c.position).limit(limit)).all()
    return cast(list[LogRow], [tuple(r) for r in rows])


class Skipped(msgspec.Struct, frozen=True):
    position: int
    event_type: str
    reason: str


@dataclass
class RowCache:
    """Rows known to be current, kept across batches by a single writer (a rebuild into its shadow
    tables).  Cleared whole when it grows past ``capacity`` so memory stays bounded."""

    capacity: int = 200_000
    rows: dict[str, dict[Hashable, Any]] = field(default_factory=lambda: defaultdict(dict))

    def size(self) -> int:
        return sum(len(r) for r in self.rows.values())

    def trim(self) -> None:
        if self.size() > self.capacity:
            self.rows.clear()


class FoldEngine:
    def __init__(self, registry: EventRegistry, projections: Sequence[Projection]) -> None:
        self.registry = registry
        self.projections = tuple(projections)
        by_type: dict[str, list[Fold[Any, Any]]] = defaultdict(list)
        for projection in self.projections:
            for fold in projection.folds:
                by_type[fold.event.event_type].append(fold)
        self._folds: dict[str, tuple[Fold[Any, Any], ...]] = {k: tuple(v) for k, v in by_type.items()}
        self.tables = {t.name: t for p in self.projections for t in p.tables}

    def fold(
        self,
        conn: Connection,
        log: Sequence[LogRow],
        targets: Mapping[str, sa.Table],
        *,
        watermark: str,
        cache: RowCache | None = None,
    ) -> list[Skipped]:
        """Fold ``log`` (ascending positions) into ``targets`` (logical table name → physical table)."""
        decoded, skipped = self._decode(log)
        known = cache.rows if cache is not None else defaultdict(dict)
        wanted: dict[str, set[Hashable]] = defaultdict(set)
        for event, info, folds in decoded:
            for fold in folds:
                name = fold.target.name
                key = fold.key(event, info)
                if key not in known[name]:
                    wanted[name].add(key)
        for name, keys in wanted.items():
            table = targets[name]
            row_cls = self.tables[name].row
            store = known[name]
            for key in keys:
                store[key] = None
            for record in load_rows(conn, table, list(keys)):
                store[key_of(table, record)] = row_cls(**record._mapping)
        dirty: dict[str, dict[Hashable, Any]] = defaultdict(dict)
        for event, info, folds in decoded:
            for fold in folds:
                name = fold.target.name
                rows = known[name]
                key = fold.key(event, info)
                before = rows[key]
                after = fold.apply(before, event, info)
                if after is not before and after is not None:
                    rows[key] = after
                    dirty[name][key] = after
        for name, changed in dirty.items():
            if changed:
                conn.execute(
                    upsert_statement(conn, targets[name]),
                    [msgspec.structs.asdict(row) for row in changed.values()],
                )
        if skipped:
            conn.execute(
                insert_ignore_statement(conn, projection_skipped_events),
                [
                    {
                        "watermark": watermark,
                        "position": s.position,
                        "event_type": s.event_type[:100],
                        "reason": s.reason,
                    }
                    for s in skipped
                ],
            )
        if cache is not None:
            cache.trim()
        return skipped

    def _decode(
        self, log: Sequence[LogRow]
    ) -> tuple[list[tuple[Any, EventInfo, tuple[Fold[Any, Any], ...]]], list[Skipped]]:
        decoded: list[tuple[Any, EventInfo, tuple[Fold[Any, Any], ...]]] = []
        skipped: list[Skipped] = []
        folds_for = self._folds
        registry = self.registry
        for position, event_type, schema_version, tenant_id, occurred_at, payload, meta in log:
            folds = folds_for.get(event_type)
            if folds is None:
                if event_type not in registry:
                    skipped.append(Skipped(position, event_type, f"unknown eventType {event_type[:80]!r}"))
                continue  # a registered type no read model folds (see coverage.NOT_PROJECTED)
            try:
                event = registry.decode_payload(event_type, cast(bytes, payload), schema_version, position)
            except (EventValidationError, UnknownEventType) as exc:
                skipped.append(Skipped(position, event_type, str(exc)[:REASON_LIMIT]))
                continue
            decoded.append((event, EventInfo(position, event_type, tenant_id, occurred_at, meta), folds))
        return decoded, skipped
