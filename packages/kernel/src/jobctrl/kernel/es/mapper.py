"""Mapping registry events to and from the library's ``StoredEvent`` (ADR 0005).

The library's stock ``Mapper`` writes a Python import path as the topic and ``vars(event)`` as the
state, and upcasts with ``class_version``.  Ours writes the registry ``eventType`` as the topic and the
event's camelCase msgspec JSON as the state, validates it against the registry schema and the size
limit (so a bad event fails before any transaction opens), and upcasts old ``schema_version``s with
the registry's ``Upcaster`` chain on the way back.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgspec
from eventsourcing.domain import OriginatorIDError, OriginatorVersionError
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.ids import deterministic_id
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store.errors import PayloadTooLarge


def event_id_for(stream_id: str, version: int, event: DomainEvent) -> str:
    """Deterministic id: the same fact decided at the same stream version gets the same id."""
    return _event_id(stream_id, version, event.event_type, msgspec.json.encode(event))


def _event_id(stream_id: str, version: int, event_type: str, payload: bytes) -> str:
    digest = hashlib.sha256(payload).hexdigest()
    return deterministic_id("event", stream_id, str(version), event_type, digest)


class StreamEvent:
    """A registry event at a position in its stream: the library's domain-event protocol.

    ``mutate`` is the library's aggregate projector step: it checks the event belongs to the
    aggregate and is the next in its sequence (the library's own errors), then applies it.
    """

    __slots__ = ("event", "originator_id", "originator_version", "position")

    def __init__(
        self, originator_id: str, originator_version: int, event: DomainEvent, position: int | None = None
    ) -> None:
        self.originator_id = originator_id
        self.originator_version = originator_version
        self.event = event
        self.position = position

    def mutate(self, aggregate: Any) -> Any:
        if aggregate is None:
            raise OriginatorIDError(self.originator_id, None)
        if self.originator_id != aggregate.stream_id:
            raise OriginatorIDError(self.originator_id, aggregate.stream_id)
        if self.originator_version != aggregate.version + 1:
            raise OriginatorVersionError(self.originator_version, aggregate.version + 1)
        aggregate.apply(self.event)
        aggregate.version = self.originator_version
        return aggregate

    def __repr__(self) -> str:
        return f"StreamEvent({self.originator_id!r}, {self.originator_version}, {self.event!r})"


@dataclass(frozen=True)
class JobStoredEvent(StoredEvent):
    """The library's ``StoredEvent`` plus the ``job_events`` columns it has no field for."""

    event_id: str = ""
    schema_version: int = 1
    job_id: str | None = None
    position: int | None = None
    tenant_id: str | None = None
    occurred_at: str | None = None
    metadata: bytes | None = None


class MsgspecTranscoder(Transcoder):
    """JSON via msgspec: Structs keep their camelCase wire names; decoding gives plain builtins."""

    def __init__(self) -> None:
        self._encoder = msgspec.json.Encoder()
        self._decoder = msgspec.json.Decoder()

    def encode(self, obj: Any) -> bytes:
        return self._encoder.encode(obj)

    def decode(self, data: bytes) -> Any:
        return self._decoder.decode(data)


class JobEventsMapper(Mapper[str]):
    def __init__(self, registry: EventRegistry, max_payload_bytes: int) -> None:
        super().__init__(transcoder=MsgspecTranscoder())
        self.registry = registry
        self.max_payload_bytes = max_payload_bytes

    def to_stored_event(self, domain_event: Any) -> JobStoredEvent:
        if not isinstance(domain_event, StreamEvent):
            raise TypeError(f"JobCtrl stores StreamEvents, not {type(domain_event).__qualname__}")
        event = domain_event.event
        payload = self.registry.validate(event)  # schema and constraints: raises before any write
        if len(payload) > self.max_payload_bytes:
            raise PayloadTooLarge(event.event_type, len(payload), self.max_payload_bytes)
        stream_id, version = domain_event.originator_id, domain_event.originator_version
        return JobStoredEvent(
            originator_id=stream_id,
            originator_version=version,
            topic=event.event_type,
            state=payload,
            event_id=_event_id(stream_id, version, event.event_type, payload),
            schema_version=event.schema_version,
            job_id=getattr(event, "job_id", None),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> StreamEvent:
        schema_version = stored_event.schema_version if isinstance(stored_event, JobStoredEvent) else 1
        position = stored_event.position if isinstance(stored_event, JobStoredEvent) else None
        event = self.registry.decode_payload(stored_event.topic, stored_event.state, schema_version, position)
        return StreamEvent(str(stored_event.originator_id), stored_event.originator_version, event, position)
