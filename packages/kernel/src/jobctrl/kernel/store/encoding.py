"""Validating and encoding events for ``job_events``, before any transaction opens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.checks import Check, plain_check
from jobctrl.kernel.store.errors import IdempotencyConflict, PayloadTooLarge

_meta_encoder = msgspec.json.Encoder()
_encode = msgspec.json.Encoder().encode  # the payloads (the registry's own encoder settings)

# Each event class's plain check (``checks.plain_check``), decided on its first append; ``None``:
# the class always takes the typed decode.  Keyed by class, so it holds whatever registry is used.
_plain_checks: dict[type, Check | None] = {}


def _check_for(cls: type) -> Check | None:
    check = _plain_checks[cls] = plain_check(cls)
    return check


class EncodedEvent(NamedTuple):
    """One validated, encoded row-to-be (everything but its stream, version and position)."""

    event_id: str
    event_type: str
    schema_version: int
    tenant_id: str
    job_id: str | None
    occurred_at: str
    payload: str
    metadata: str


def encode_events(
    registry: EventRegistry, max_payload_bytes: int, events: Sequence[NewEvent]
) -> list[EncodedEvent]:
    """Validate every event against its registry schema and the size limit, and encode it."""
    if not events:
        raise ValueError("append needs at least one event")
    # ``registry.validate`` inlined (ADR 0364): one lookup by class, one encode, one typed decode
    # per event, or instead of the decode the class's plain check where it has one (ADR 0405): a
    # ``True`` proves the decode would pass, a ``False`` sends the event to the decode.  Any refusal
    # is raised by ``validate`` itself, so the errors are its own.
    decoders, validate, limit = registry.class_decoders, registry.validate, max_payload_bytes
    checks, unseen = _plain_checks, _check_for
    encode, meta = _encode, _meta_encoder.encode
    make = tuple.__new__  # EncodedEvent's fields in order, without its Python-level __new__
    encoded: list[EncodedEvent] = []
    append = encoded.append
    for new in events:
        event = new.event
        cls = type(event)
        decoder = decoders.get(cls)
        if decoder is None:
            payload = validate(event)  # raises UnknownEventType
        else:
            payload = encode(event)
            check = checks[cls] if cls in checks else unseen(cls)
            if check is None or not check(event):
                try:
                    decoder.decode(payload)
                except msgspec.ValidationError:
                    payload = validate(event)  # raises EventValidationError
        if len(payload) > limit:
            raise PayloadTooLarge(event.event_type, len(payload), limit)
        metadata = new.metadata
        append(
            make(
                EncodedEvent,
                (
                    metadata.event_id,
                    event.event_type,
                    event.schema_version,
                    new.tenant_id,
                    getattr(event, "job_id", None),
                    new.occurred_at,
                    payload.decode(),
                    meta(metadata).decode(),
                ),
            )
        )
    ids = {e[0] for e in encoded}
    if len(ids) != len(encoded):
        raise IdempotencyConflict("a batch repeats an event id")
    return encoded
