"""Validating and encoding events for ``job_events``, before any transaction opens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import msgspec

from jobctrl.kernel.events import DomainEvent, NewEvent
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


#: One validated, encoded row-to-be (everything but its stream, version and position): ``(event_id,
#: event_type, schema_version, tenant_id, job_id, occurred_at, payload, metadata)``, the insert's column
#: order (``rows.py``).  A plain tuple, not a ``NamedTuple`` (ADR 0440): a tuple subclass costs a
#: second tuple and a generic allocation per event (0.2 µs of a batch event's 1.5), and the cyclic GC
#: never untracks one, where it drops a plain tuple of text and numbers from its lists at its first look.
EncodedEvent = tuple[str, str, int, str, str | None, str, str, str]
ENCODED_FIELDS = (
    "event_id",
    "event_type",
    "schema_version",
    "tenant_id",
    "job_id",
    "occurred_at",
    "payload",
    "metadata",
)


def _no_job_id(_event: object) -> None:
    return None


def _job_id_or_none(event: object) -> str | None:
    job_id: str | None = getattr(event, "job_id", None)
    return job_id


# What a batch needs of each plain-checked class, decided once per class (ADR 0440): its plain check,
# ``event_type``, ``schema_version`` and how to read ``job_id``.  ``None``: the class has no plain check
# (every event of it takes ``encode_one``'s decode).  Keyed by class like ``_plain_checks``; whether
# the class is registered is asked of the registry in hand, once per run of one class.
_Plan = tuple[Check, str, int, Callable[[Any], str | None]]
_plans: dict[type, _Plan | None] = {}


def _plan_for(cls: type[DomainEvent]) -> _Plan | None:
    check = _plain_checks[cls] if cls in _plain_checks else _check_for(cls)
    plan: _Plan | None = None
    event_type, schema_version = cls.event_type, cls.schema_version
    # Both are class constants of every registered class; anything else keeps ``encode_one``'s reads.
    if check is not None and type(event_type) is str and type(schema_version) is int:
        fields: tuple[str, ...] = getattr(cls, "__struct_fields__", ())
        # A struct field is always set: ``attrgetter`` reads it as ``getattr(e, "job_id", None)`` does.
        job = (
            attrgetter("job_id")
            if "job_id" in fields
            else (_job_id_or_none if hasattr(cls, "job_id") else _no_job_id)
        )
        plan = (check, event_type, schema_version, job)
    _plans[cls] = plan
    return plan


def encode_events(
    registry: EventRegistry, max_payload_bytes: int, events: Sequence[NewEvent]
) -> list[EncodedEvent]:
    """Validate every event against its registry schema and the size limit, and encode it."""
    if len(events) == 1:  # most appends: no loop, no repeated-id set (ADR 0420)
        return [encode_one(registry, max_payload_bytes, events[0])]
    if not events:
        raise ValueError("append needs at least one event")
    encoded = _encode_batch(registry, max_payload_bytes, events)
    if len({e[0] for e in encoded}) != len(encoded):
        raise IdempotencyConflict("a batch repeats an event id")
    return encoded


def _encode_batch(registry: EventRegistry, limit: int, events: Sequence[NewEvent]) -> list[EncodedEvent]:
    """``encode_one`` of each event, with the class's lookups made once per run of one class (ADR 0440).

    An event of a plain-checked, registered class whose check passes and whose payload is within the
    limit is encoded here, as ``encode_one`` would; any other event goes to ``encode_one`` itself, so
    every refusal (unregistered class, schema, size) is raised there, by the same code as before.
    """
    decoders = registry.class_decoders
    encoded: list[EncodedEvent] = []
    append = encoded.append
    last: type[DomainEvent] | None = None
    check: Check = _never
    event_type, schema_version = "", 0
    job: Callable[[Any], str | None] = _no_job_id
    for new in events:
        event = new.event
        cls = type(event)
        if cls is not last:
            plan = _plans[cls] if cls in _plans else _plan_for(cls)
            if plan is None or cls not in decoders:
                last = None
                append(encode_one(registry, limit, new))
                continue
            check, event_type, schema_version, job = plan
            last = cls
        payload = _encode(event) if check(event) else None
        if payload is None or len(payload) > limit:
            append(encode_one(registry, limit, new))  # the decode, and its error or the size error
            continue
        metadata = new.metadata
        append(
            (
                metadata.event_id,
                event_type,
                schema_version,
                new.tenant_id,
                job(event),
                new.occurred_at,
                payload.decode(),
                _meta_encode(metadata).decode(),
            )
        )
    return encoded


def _never(_event: object) -> bool:
    return False


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
    return (
        metadata.event_id,
        event.event_type,
        event.schema_version,
        new.tenant_id,
        getattr(event, "job_id", None),
        new.occurred_at,
        payload.decode(),
        _meta_encode(metadata).decode(),
    )
