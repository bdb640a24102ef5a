"""Validating and encoding events for ``job_events``, before any transaction opens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.checks import Check, plain_check
from jobctrl.kernel.store.errors import IdempotencyConflict, PayloadTooLarge

_meta_encode = msgspec.json.Encoder().encode
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
    if len(events) == 1:  # most appends: no loop, no repeated-id set (ADR 0420)
        return [encode_one(registry, max_payload_bytes, events[0])]
    if not events:
        raise ValueError("append needs at least one event")
    encoded = [encode_one(registry, max_payload_bytes, new) for new in events]
    if len({e[0] for e in encoded}) != len(encoded):
        raise IdempotencyConflict("a batch repeats an event id")
    return encoded


def encode_one(registry: EventRegistry, limit: int, new: NewEvent) -> EncodedEvent:
    """One event validated and encoded; the refusals are ``registry.validate``'s own.

    ``validate`` inlined (ADR 0364): one lookup by class, one encode, and one typed decode, or
    instead of the decode the class's plain check where it has one (ADR 0405): a ``True`` proves the
    decode would pass, a ``False`` sends the event to the decode.  Any refusal is raised by
    ``validate`` itself, so the errors are its own.
    """
    event = new.event
    cls = type(event)
    decoder = registry.class_decoders.get(cls)
    if decoder is None:
        payload = registry.validate(event)  # raises UnknownEventType
    else:
        payload = _encode(event)
        check = _plain_checks[cls] if cls in _plain_checks else _check_for(cls)
        if check is None or not check(event):
            try:
                decoder.decode(payload)
            except msgspec.ValidationError:
                payload = registry.validate(event)  # raises EventValidationError
    if len(payload) > limit:
        raise PayloadTooLarge(event.event_type, len(payload), limit)
    metadata = new.metadata
    # EncodedEvent's fields in order, without its Python-level __new__.
    return tuple.__new__(
        EncodedEvent,
        (
            metadata.event_id,
            event.event_type,
            event.schema_version,
            new.tenant_id,
            getattr(event, "job_id", None),
            new.occurred_at,
            payload.decode(),
            _meta_encode(metadata).decode(),
        ),
    )
