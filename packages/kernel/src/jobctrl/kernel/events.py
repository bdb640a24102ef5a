"""Domain events and their envelope.

A domain event is an immutable, past-tense ``msgspec.Struct`` whose fields are its payload.  Field
names are snake_case in Python and camelCase on the wire.  Each class names its registry entry with
``event_type`` and its payload shape with ``schema_version``; a shape change needs a new version and
an upcaster (see ``registry.Upcaster``).

The envelope on the wire is JobCtrl's ``{eventType, tenantId, occurredAt, payload}``.  Metadata
(event id, correlation/causation ids, the Temporal workflow id, run id and attempt that produced the
event) travels beside it and is stored in its own column.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

import msgspec

from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.ids import LOCAL_TENANT, new_event_id


class DomainEvent(msgspec.Struct, frozen=True, kw_only=True, rename="camel", omit_defaults=True):
    """Base class of every payload.  Subclasses set ``event_type`` and may bump ``schema_version``."""

    event_type: ClassVar[str] = ""
    schema_version: ClassVar[int] = 1

    def to_payload(self) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result


class EventMetadata(msgspec.Struct, frozen=True, kw_only=True, rename="camel", omit_defaults=True):
    """Where an event came from.  Every field is optional; ``event_id`` is always set by ``NewEvent``."""

    event_id: str
    correlation_id: str | None = None
    causation_id: str | None = None
    workflow_id: str | None = None
    run_id: str | None = None
    attempt: int | None = None


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event on its way into the store."""

    event: DomainEvent
    tenant_id: str
    occurred_at: str
    metadata: EventMetadata

    @classmethod
    def of(
        cls,
        event: DomainEvent,
        *,
        occurred_at: datetime,
        tenant_id: str = LOCAL_TENANT,
        event_id: str | None = None,
        correlation_id: str | None = None,
        causation_id: str | None = None,
        workflow_id: str | None = None,
        run_id: str | None = None,
        attempt: int | None = None,
    ) -> NewEvent:
        return cls(
            event=event,
            tenant_id=tenant_id,
            occurred_at=isoformat(occurred_at),
            metadata=EventMetadata(
                event_id=event_id or new_event_id(),
                correlation_id=correlation_id,
                causation_id=causation_id,
                workflow_id=workflow_id,
                run_id=run_id,
                attempt=attempt,
            ),
        )

    @property
    def event_id(self) -> str:
        return self.metadata.event_id


class Envelope(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The reference wire envelope, as found in JSON Lines imports and SSE frames."""

    event_type: str
    tenant_id: str
    occurred_at: str
    payload: dict[str, Any]


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A row of ``job_events`` as read back: payload still encoded, decoded on demand by the registry."""

    position: int
    stream_id: str
    stream_version: int
    event_id: str
    event_type: str
    schema_version: int
    tenant_id: str
    occurred_at: str
    payload: bytes
    metadata: bytes

    def envelope(self) -> Envelope:
        return Envelope(
            event_type=self.event_type,
            tenant_id=self.tenant_id,
            occurred_at=self.occurred_at,
            payload=msgspec.json.decode(self.payload),
        )

    def meta(self) -> EventMetadata:
        return msgspec.json.decode(self.metadata, type=EventMetadata)
