"""The ordered, append-only registry of event types.

The registry maps each ``eventType`` name to its class and its position in the canonical order.
Order matters because the generated ``registry.json`` is the parity artefact that clients check:
entries are only ever appended, never removed or reordered.

Decoding goes through the registry: an unknown ``eventType`` raises ``UnknownEventType`` naming the
log position; a payload of an older schema version is upcast step by step to the current one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.events import DomainEvent, StoredEvent

Payload = dict[str, Any]
_encode = msgspec.json.Encoder().encode
UpcastFn = Callable[[Payload], Payload]


class RegistryError(JobCtrlError):
    code = "configuration"
    retryable = False


class UnknownEventType(JobCtrlError):
    """The log holds an ``eventType`` this registry does not know."""

    code = "unknown_event_type"
    retryable = False

    def __init__(self, event_type: str, position: int | None = None) -> None:
        where = f" at log position {position}" if position is not None else ""
        super().__init__(f"unknown eventType {event_type[:80]!r}{where}")
        self.event_type = event_type
        self.position = position


class EventValidationError(JobCtrlError):
    """A payload does not match its event schema (or is too large)."""

    code = "invalid_event"
    retryable = False

    def __init__(self, event_type: str, reason: str, position: int | None = None) -> None:
        where = f" at log position {position}" if position is not None else ""
        super().__init__(f"{event_type}{where}: {reason}")
        self.event_type = event_type
        self.reason = reason
        self.position = position


@dataclass(frozen=True)
class Upcaster:
    """Turns a payload of ``from_version`` of ``event_type`` into ``from_version + 1``."""

    event_type: str
    from_version: int
    upcast: UpcastFn


@dataclass(frozen=True)
class EventRegistry:
    classes: tuple[type[DomainEvent], ...]
    upcasters: tuple[Upcaster, ...] = ()
    _by_name: Mapping[str, type[DomainEvent]] = field(init=False, repr=False)
    _index: Mapping[str, int] = field(init=False, repr=False)
    _decoders: Mapping[str, msgspec.json.Decoder[Any]] = field(init=False, repr=False)
    _by_class: Mapping[type[DomainEvent], msgspec.json.Decoder[Any]] = field(init=False, repr=False)
    _upcast_chain: Mapping[tuple[str, int], UpcastFn] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_name: dict[str, type[DomainEvent]] = {}
        for cls in self.classes:
            name = cls.event_type
            if not name:
                raise RegistryError(f"{cls.__qualname__} has no event_type")
            if name in by_name:
                raise RegistryError(f"event type {name!r} registered twice")
            if cls.schema_version < 1:
                raise RegistryError(f"{name}: schema_version must be >= 1")
            by_name[name] = cls
        chain: dict[tuple[str, int], UpcastFn] = {}
        for up in self.upcasters:
            if up.event_type not in by_name:
                raise RegistryError(f"upcaster for unregistered type {up.event_type!r}")
            if not 1 <= up.from_version < by_name[up.event_type].schema_version:
                raise RegistryError(f"upcaster {up.event_type} v{up.from_version} is out of range")
            chain[(up.event_type, up.from_version)] = up.upcast
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(by_name)})
        object.__setattr__(self, "_decoders", {n: msgspec.json.Decoder(c) for n, c in by_name.items()})
        object.__setattr__(self, "_upcast_chain", chain)
        object.__setattr__(self, "_by_class", {c: self._decoders[c.event_type] for c in by_name.values()})

    # -- lookup -----------------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_name)

    def class_for(self, event_type: str, position: int | None = None) -> type[DomainEvent]:
        try:
            return self._by_name[event_type]
        except KeyError:
            raise UnknownEventType(event_type, position) from None

    def index_of(self, event_type: str) -> int:
        try:
            return self._index[event_type]
        except KeyError:
            raise UnknownEventType(event_type) from None

    def extended(
        self, more: Iterable[type[DomainEvent]], upcasters: Sequence[Upcaster] = ()
    ) -> EventRegistry:
        """A new registry with ``more`` appended (the only way a registry grows)."""
        return EventRegistry(self.classes + tuple(more), self.upcasters + tuple(upcasters))

    # -- decoding ---------------------------------------------------------------------------------
    def decode_payload(
        self, event_type: str, payload: bytes, schema_version: int, position: int | None = None
    ) -> DomainEvent:
        cls = self.class_for(event_type, position)
        if schema_version == cls.schema_version:
            try:
                event: DomainEvent = self._decoders[event_type].decode(payload)
            except msgspec.ValidationError as exc:
                raise EventValidationError(event_type, str(exc), position) from None
            except msgspec.DecodeError as exc:
                raise EventValidationError(event_type, f"malformed JSON: {exc}", position) from None
            return event
        try:
            data = msgspec.json.decode(payload)
        except msgspec.DecodeError as exc:
            raise EventValidationError(event_type, f"malformed JSON: {exc}", position) from None
        return self.from_builtins(event_type, data, schema_version, position)

    def from_builtins(
        self, event_type: str, data: Any, schema_version: int | None = None, position: int | None = None
    ) -> DomainEvent:
        cls = self.class_for(event_type, position)
        version = cls.schema_version if schema_version is None else schema_version
        if version > cls.schema_version:
            raise EventValidationError(
                event_type, f"schema version {version} is newer than this code", position
            )
        if not isinstance(data, dict):
            raise EventValidationError(event_type, "payload is not an object", position)
        while version < cls.schema_version:
            step = self._upcast_chain.get((event_type, version))
            if step is None:
                raise EventValidationError(event_type, f"no upcaster from schema version {version}", position)
            data = step(dict(data))
            version += 1
        try:
            event: DomainEvent = msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise EventValidationError(event_type, str(exc), position) from None
        return event

    def decode(self, stored: StoredEvent) -> DomainEvent:
        return self.decode_payload(stored.event_type, stored.payload, stored.schema_version, stored.position)

    def validate(self, event: DomainEvent) -> bytes:
        """Encode ``event`` and prove it decodes back under its own schema (constraints included).

        On every append's hot path, so it does the minimum: one lookup, one encode, one typed decode.
        """
        event_type = event.event_type
        if self._by_name.get(event_type) is not type(event):
            raise UnknownEventType(event_type)
        encoded = _encode(event)
        try:
            self._decoders[event_type].decode(encoded)
        except msgspec.ValidationError as exc:
            raise EventValidationError(event_type, str(exc)) from None
        return encoded

    @property
    def class_decoders(self) -> Mapping[type[DomainEvent], msgspec.json.Decoder[Any]]:
        """The typed decoder of each registered class, by class (the append path's loop, ADR 0364).

        A class is registered iff it is the class its name maps to, so one lookup by ``type(event)``
        stands for ``validate``'s name lookup and identity check.
        """
        return self._by_class
