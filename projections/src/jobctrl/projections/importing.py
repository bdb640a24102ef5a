"""``jobctrl events import FILE``: append reference envelopes from JSON Lines, in file order.

Each line is ``{eventType, tenantId, occurredAt, payload}``.  A line that is not such an envelope,
names an unknown type, or whose payload fails its schema is rejected with its line number and reason
(nothing of it is stored).  Payload keys outside the event's schema are dropped and counted: the
event is re-encoded from its typed Struct, so an unknown key never reaches the log.  Event ids are
derived from each line's content and number, so importing the same file again appends
nothing — and importing it again after lines were appended imports only the new lines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from jobctrl.kernel.clock import isoformat, parse_instant
from jobctrl.kernel.events import EventMetadata, NewEvent
from jobctrl.kernel.ids import InvalidIdError, checked_id, deterministic_id
from jobctrl.kernel.registry import EventValidationError, UnknownEventType
from jobctrl.kernel.store.errors import IdempotencyConflict
from jobctrl.kernel.store.event_store import EventStore

CHUNK = 500
REASON_LIMIT = 300


class Rejected(msgspec.Struct, frozen=True, rename="camel"):
    line: int
    reason: str


class ImportReport(msgspec.Struct, rename="camel"):
    imported: int = 0
    already_present: int = 0
    rejected: list[Rejected] = msgspec.field(default_factory=list)
    unknown_keys_dropped: int = 0


class _Envelope(msgspec.Struct, frozen=True, rename="camel"):
    event_type: str
    tenant_id: str
    occurred_at: str
    payload: dict[str, Any]


_envelope = msgspec.json.Decoder(_Envelope)


def _schema_keys(cls: type[msgspec.Struct]) -> frozenset[str]:
    return frozenset(f.encode_name for f in msgspec.structs.fields(cls))


def import_lines(store: EventStore, lines: Iterable[bytes]) -> ImportReport:
    report = ImportReport()
    pending: list[NewEvent] = []
    stream = "imported-events"
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            new, dropped = _parse(store, raw, number)
        except ValueError as exc:
            report.rejected.append(Rejected(number, str(exc)[:REASON_LIMIT]))
            continue
        report.unknown_keys_dropped += dropped
        pending.append(new)
        if len(pending) >= CHUNK:
            _flush(store, stream, pending, report)
    _flush(store, stream, pending, report)
    return report


def import_file(store: EventStore, path: Path) -> ImportReport:
    with path.open("rb") as handle:
        return import_lines(store, handle)


def _parse(store: EventStore, raw: bytes, number: int) -> tuple[NewEvent, int]:
    try:
        envelope = _envelope.decode(raw)
    except msgspec.DecodeError as exc:
        raise ValueError(f"not a reference envelope: {exc}") from None
    try:
        cls = store.registry.class_for(envelope.event_type)
        tenant = checked_id(envelope.tenant_id)
        occurred_at = isoformat(parse_instant(envelope.occurred_at))
    except UnknownEventType as exc:
        raise ValueError(exc.message) from None
    except InvalidIdError:
        raise ValueError("tenantId is not a safe id") from None
    known = _schema_keys(cls)
    payload = {k: v for k, v in envelope.payload.items() if k in known}
    try:
        event = store.registry.from_builtins(envelope.event_type, payload)
        store.registry.validate(event)
    except EventValidationError as exc:
        raise ValueError(exc.reason) from None
    event_id = deterministic_id("events-import", str(number), hashlib.sha256(raw.strip()).hexdigest())
    new = NewEvent(
        event=event, tenant_id=tenant, occurred_at=occurred_at, metadata=EventMetadata(event_id=event_id)
    )
    return new, len(envelope.payload) - len(payload)


def _flush(store: EventStore, stream: str, pending: list[NewEvent], report: ImportReport) -> None:
    if not pending:
        return
    try:
        results = [store.append(stream, None, pending)]
    except IdempotencyConflict:
        # Part of this chunk was imported before (the file grew since): settle it event by event.
        results = [store.append(stream, None, [new]) for new in pending]
    for result in results:
        if result.idempotent_replay:
            report.already_present += len(result.positions)
        else:
            report.imported += len(result.positions)
    pending.clear()
