"""Reading the log for a fold and decoding the rows some fold handles (ADR 0232, 0350, 0415).

``read_log`` reads rows in position order on the DBAPI cursor; ``decoding`` turns them into
``(event, info, steps)`` one at a time, so a fold whose cache needs no lookups applies each event as
it is decoded and keeps no list of the batch's events (ADR 0415).  An event that cannot be decoded
is skipped and reported (position and reason); it never reaches a fold, so nothing of it is
half-applied.  Unknown payload keys are dropped by the decoder and never reach a read model.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar, cast

import msgspec
from sqlalchemy import Connection

from jobctrl.kernel.registry import EventRegistry, EventValidationError, UnknownEventType
from jobctrl.kernel.store.schema import job_events
from jobctrl.projections.model import EventInfo
from jobctrl.projections.times import utc_or_none

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

S = TypeVar("S")


def read_log(conn: Connection, after: int, limit: int, up_to: int | None = None) -> list[LogRow]:
    """Up to ``limit`` rows after ``after`` (and at most ``up_to``), in position order."""
    mark = "?" if conn.dialect.name == "sqlite" else "%s"
    names = ", ".join(c.name for c in LOG_COLUMNS)
    bound = f" AND position <= {mark}" if up_to is not None else ""
    sql = f"SELECT {names} FROM job_events WHERE position > {mark}{bound} ORDER BY position LIMIT {mark}"
    params = (after, up_to, limit) if up_to is not None else (after, limit)
    cursor = conn.connection.cursor()
    try:
        cursor.execute(sql, params)
        return cast(list[LogRow], cursor.fetchall())
    finally:
        cursor.close()


class Skipped(msgspec.Struct, frozen=True):
    position: int
    event_type: str
    reason: str


def decoding(
    log: Sequence[LogRow],
    bound: Mapping[str, S],
    decoders: Mapping[str, tuple[int, msgspec.json.Decoder[Any]]],
    registry: EventRegistry,
    skipped: list[Skipped],
) -> Iterator[tuple[Any, EventInfo, S]]:
    """Each row whose type has folds in ``bound``, decoded: ``(event, info, bound[type])`` in log
    order.  A row that cannot be decoded (or of an unregistered type) is appended to ``skipped``
    instead; a registered type no read model folds (``coverage.NOT_PROJECTED``) is passed over.
    ``decoders`` hold each folded type's decoder at its current schema version; older versions go
    through the registry, which upcasts."""
    for position, event_type, schema_version, tenant_id, occurred_at, payload, meta in log:
        steps = bound.get(event_type)
        if steps is None:
            if event_type not in registry:
                skipped.append(Skipped(position, event_type, f"unknown eventType {event_type[:80]!r}"))
            continue
        version, decoder = decoders[event_type]
        try:
            if schema_version == version:
                event = decoder.decode(payload)
            else:
                event = registry.decode_payload(event_type, cast(bytes, payload), schema_version, position)
        except msgspec.ValidationError as exc:
            skipped.append(Skipped(position, event_type, f"{event_type}: {exc}"[:REASON_LIMIT]))
            continue
        except msgspec.DecodeError as exc:
            reason = f"{event_type}: malformed JSON: {exc}"
            skipped.append(Skipped(position, event_type, reason[:REASON_LIMIT]))
            continue
        except (EventValidationError, UnknownEventType) as exc:
            skipped.append(Skipped(position, event_type, str(exc)[:REASON_LIMIT]))
            continue
        # ``utc_or_none`` inline for the wire form, the common case (one call less per event)
        at = (
            occurred_at
            if len(occurred_at) == 24 and occurred_at[23] == "Z" and occurred_at[10] == "T"
            else utc_or_none(occurred_at)
        )
        yield event, EventInfo(position, event_type, tenant_id, occurred_at, at, meta), steps
