"""``jobctrl events import FILE`` and ``jobctrl events export FILE``: the log as JSON Lines (ADR 0111).

Each line is a reference envelope ``{eventType, tenantId, occurredAt, payload}``, optionally with the
``eventId`` and the ``metadata`` (correlation, causation, workflow id, run id, attempt) the folds
read: an export writes both, so exporting a log and importing it elsewhere rebuilds every read model
identically.

An import is all or nothing per file.  Every line is parsed first; a line that is not such an
envelope (bad JSON, nested too deep, an ``occurredAt`` that overflows), names an unknown type, fails
its schema or is over the payload limit is rejected with its line number and a bounded reason, and
then nothing of the file is written.  Payload keys outside the event's schema are dropped and
counted: the event is re-encoded from its typed Struct, so an unknown key never reaches the log.

An event's id is the line's own ``eventId``, else a digest of its content (type, tenant, instant,
re-encoded payload, metadata) — never its position — so a shifted, reordered or repeated file
imports nothing twice, and a file that grew imports only its new events.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.clock import isoformat, parse_instant
from jobctrl.kernel.events import EventMetadata, NewEvent
from jobctrl.kernel.ids import InvalidIdError, checked_id, deterministic_id
from jobctrl.kernel.registry import EventValidationError, UnknownEventType
from jobctrl.kernel.store.event_store import AppendRequest, EventStore
from jobctrl.kernel.store.schema import job_events

STREAM = "imported-events"
REASON_LIMIT = 300
PRESENT_CHUNK = 500
EXPORT_PAGE = 2000


class Rejected(msgspec.Struct, frozen=True, rename="camel"):
    line: int
    reason: str


class ImportReport(msgspec.Struct, rename="camel"):
    imported: int = 0
    already_present: int = 0
    rejected: list[Rejected] = msgspec.field(default_factory=list)
    unknown_keys_dropped: int = 0


class _Metadata(msgspec.Struct, frozen=True, rename="camel", forbid_unknown_fields=True):
    correlation_id: str | None = None
    causation_id: str | None = None
    workflow_id: str | None = None
    run_id: str | None = None
    attempt: int | None = None


class _Envelope(msgspec.Struct, frozen=True, rename="camel"):
    event_type: str
    tenant_id: str
    occurred_at: str
    payload: dict[str, Any]
    event_id: str | None = None
    metadata: _Metadata | None = None


class _Exported(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    event_type: str
    tenant_id: str
    occurred_at: str
    payload: msgspec.Raw
    event_id: str
    metadata: _Metadata


_envelope = msgspec.json.Decoder(_Envelope)


def _length(column: sa.Column[Any], default: int) -> int:
    kind = column.type
    return kind.length or default if isinstance(kind, sa.String) else default


_ID_LIMITS = {
    "tenantId": _length(job_events.c.tenant_id, 64),
    "eventId": _length(job_events.c.event_id, 64),
    "jobId": _length(job_events.c.job_id, 200),
}
_encoder = msgspec.json.Encoder()


class _LineRejected(ValueError):
    pass


def _schema_keys(cls: type[msgspec.Struct]) -> frozenset[str]:
    return frozenset(f.encode_name for f in msgspec.structs.fields(cls))


def import_lines(store: EventStore, lines: Iterable[bytes]) -> ImportReport:
    """Parse every line, then append all of them in one transaction — or, if any line is rejected,
    none."""
    report = ImportReport()
    parsed: dict[str, NewEvent] = {}  # by event id, first occurrence wins (file order)
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            new, dropped = _parse(store, raw)
        except _LineRejected as exc:
            report.rejected.append(Rejected(number, str(exc)[:REASON_LIMIT]))
            continue
        report.unknown_keys_dropped += dropped
        if new.event_id in parsed:
            report.already_present += 1  # the same event twice in one file
            continue
        parsed[new.event_id] = new
    if report.rejected or not parsed:
        return report
    present = _present(store, list(parsed))
    report.already_present += len(present)
    fresh = [new for event_id, new in parsed.items() if event_id not in present]
    if fresh:
        [result] = store.append_batch([AppendRequest(STREAM, None, fresh)])
        report.imported += len(result.positions)
    return report


def import_file(store: EventStore, path: Path) -> ImportReport:
    with path.open("rb") as handle:
        return import_lines(store, handle)


def _parse(store: EventStore, raw: bytes) -> tuple[NewEvent, int]:
    try:
        envelope = _envelope.decode(raw)
    except msgspec.DecodeError as exc:
        raise _LineRejected(f"not a reference envelope: {exc}") from None
    except RecursionError:
        raise _LineRejected("not a reference envelope: JSON nested too deep") from None
    try:
        cls = store.registry.class_for(envelope.event_type)
        tenant = checked_id(envelope.tenant_id)
        occurred_at = isoformat(parse_instant(envelope.occurred_at))
        event_id = checked_id(envelope.event_id) if envelope.event_id is not None else None
    except UnknownEventType as exc:
        raise _LineRejected(exc.message) from None
    except InvalidIdError:
        raise _LineRejected("tenantId and eventId must be safe ids") from None
    except (ValueError, OverflowError) as exc:
        raise _LineRejected(f"occurredAt is not an instant: {type(exc).__name__}") from None
    known = _schema_keys(cls)
    payload = {k: v for k, v in envelope.payload.items() if k in known}
    try:
        event = store.registry.from_builtins(envelope.event_type, payload)
        encoded = store.registry.validate(event)
    except EventValidationError as exc:
        raise _LineRejected(exc.reason) from None
    except RecursionError:
        raise _LineRejected("payload nested too deep") from None
    if len(encoded) > store.max_payload_bytes:
        raise _LineRejected(
            f"payload_too_large: {len(encoded)} bytes, over the {store.max_payload_bytes}-byte limit"
        )
    # The log's columns bound these ids (PostgreSQL refuses longer ones; SQLite would store them).
    for name, value in (
        ("tenantId", tenant),
        ("eventId", event_id),
        ("jobId", getattr(event, "job_id", None)),
    ):
        limit = _ID_LIMITS[name]
        if isinstance(value, str) and len(value) > limit:
            raise _LineRejected(f"{name} is longer than {limit} characters")
    meta = envelope.metadata or _Metadata()
    if event_id is None:
        # Identity from the content, never the position: the same envelope is the same event.
        content = _encoder.encode([envelope.event_type, tenant, occurred_at, msgspec.Raw(encoded), meta])
        event_id = deterministic_id("events-import", hashlib.sha256(content).hexdigest())
    metadata = EventMetadata(
        event_id=event_id,
        correlation_id=meta.correlation_id,
        causation_id=meta.causation_id,
        workflow_id=meta.workflow_id,
        run_id=meta.run_id,
        attempt=meta.attempt,
    )
    new = NewEvent(event=event, tenant_id=tenant, occurred_at=occurred_at, metadata=metadata)
    return new, len(envelope.payload) - len(payload)


def _present(store: EventStore, event_ids: list[str]) -> set[str]:
    found: set[str] = set()
    with store.db.read() as conn:
        for start in range(0, len(event_ids), PRESENT_CHUNK):
            chunk = event_ids[start : start + PRESENT_CHUNK]
            rows = conn.execute(sa.select(job_events.c.event_id).where(job_events.c.event_id.in_(chunk)))
            found.update(row[0] for row in rows)
    return found


def export_lines(store: EventStore) -> Iterator[bytes]:
    """Every event in log order as one JSON line, with its id and metadata (the inverse of import)."""
    after = 0
    while True:
        page = store.read_all(after=after, limit=EXPORT_PAGE)
        if not page:
            return
        for row in page:
            meta = row.meta()
            yield (
                _encoder.encode(
                    _Exported(
                        event_type=row.event_type,
                        tenant_id=row.tenant_id,
                        occurred_at=row.occurred_at,
                        payload=msgspec.Raw(row.payload),
                        event_id=row.event_id,
                        metadata=_Metadata(
                            correlation_id=meta.correlation_id,
                            causation_id=meta.causation_id,
                            workflow_id=meta.workflow_id,
                            run_id=meta.run_id,
                            attempt=meta.attempt,
                        ),
                    )
                )
                + b"\n"
            )
        after = page[-1].position


def export_file(store: EventStore, path: Path) -> int:
    """Write the whole log to ``path`` (replaced atomically); returns how many events it holds."""
    tmp = path.with_name(path.name + ".partial")
    count = 0
    with tmp.open("wb") as handle:
        count = _write(store, handle)
    tmp.replace(path)
    return count


def _write(store: EventStore, handle: IO[bytes]) -> int:
    count = 0
    for line in export_lines(store):
        handle.write(line)
        count += 1
    return count
