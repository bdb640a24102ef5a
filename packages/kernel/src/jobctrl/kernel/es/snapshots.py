"""Aggregate snapshots: the state of a stream after N events, so a load replays only what follows.

A snapshot is a cache, never a source of truth: it is written in the same transaction as the
events it covers (so it can never be ahead of or disagree with the log), and a snapshot whose
``snapshot_type`` or ``state_version`` no longer matches the aggregate class is ignored (the stream
is replayed and a fresh snapshot written later).  Upcasting therefore never applies to snapshots.

The state is the aggregate's instance attributes as JSON (msgspec: Structs, dataclasses, sets,
datetimes, enums all encode).  On restore each attribute is converted back to the type its class
annotates (``self.tags: set[str]`` needs ``tags: set[str]`` on the class).  ``SnapshotCodec.encode``
proves the round trip before a snapshot is written: state that would not come back equal raises
``SnapshotStateError`` instead of caching a lie.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.es.mapper import MsgspecTranscoder

# Attributes every aggregate has that are not state: identity, version, and uncommitted events.
_NOT_STATE = frozenset({"id", "version", "_pending"})


class SnapshotStateError(JobCtrlError):
    """An aggregate's state does not survive a JSON round trip (annotate the attribute's type)."""

    code = "configuration"
    retryable = False


@dataclass(frozen=True)
class SnapshotCodec:
    """How one aggregate class's state becomes a snapshot row and back."""

    aggregate_cls: type[Any]
    snapshot_type: str
    state_version: int

    def hints(self) -> dict[str, Any]:
        try:
            return typing.get_type_hints(self.aggregate_cls)
        except (NameError, TypeError):
            return {}

    def state_of(self, aggregate: Any) -> dict[str, Any]:
        return {k: v for k, v in vars(aggregate).items() if k not in _NOT_STATE}

    def encode(self, aggregate: Any) -> bytes:
        state = self.state_of(aggregate)
        try:
            data = msgspec.json.encode(state)
            restored = self.decode_state(msgspec.json.decode(data))
        except (TypeError, msgspec.ValidationError) as exc:
            raise SnapshotStateError(f"{self.snapshot_type}: state cannot be snapshotted: {exc}") from None
        if restored != state:
            changed = sorted(k for k in state if restored.get(k) != state[k])
            raise SnapshotStateError(
                f"{self.snapshot_type}: attributes {changed} do not round-trip; annotate their types"
            )
        return data

    def decode_state(self, data: dict[str, Any]) -> dict[str, Any]:
        hints = self.hints()
        return {k: msgspec.convert(v, hints[k]) if k in hints else v for k, v in data.items()}

    def restore(self, aggregate_id: str, version: int, state: dict[str, Any]) -> Any:
        aggregate = object.__new__(self.aggregate_cls)  # skip __init__: the state comes from the row
        aggregate.id = aggregate_id
        aggregate.version = version
        aggregate._pending = []
        for key, value in self.decode_state(state).items():
            setattr(aggregate, key, value)
        return aggregate


class Snapshot:
    """The library's snapshot protocol (``take``/``mutate``/``state``) for our aggregates."""

    __slots__ = ("aggregate_id", "codec", "originator_id", "originator_version", "state")

    def __init__(
        self, originator_id: str, originator_version: int, aggregate_id: str, state: Any, codec: SnapshotCodec
    ) -> None:
        self.originator_id = originator_id
        self.originator_version = originator_version
        self.aggregate_id = aggregate_id
        self.state = state
        self.codec = codec

    @classmethod
    def take(cls, aggregate: Any) -> Snapshot:
        codec = type(aggregate).snapshot_codec()
        version = aggregate.version + len(aggregate._pending)
        state = msgspec.json.decode(codec.encode(aggregate))
        return cls(aggregate.stream_id, version, aggregate.id, state, codec)

    def mutate(self, _: None) -> Any:
        return self.codec.restore(self.aggregate_id, self.originator_version, self.state)


class SnapshotMapper(Mapper[str]):
    """Snapshot <-> row of ``aggregate_snapshots`` (topic = the codec's snapshot type)."""

    def __init__(self, codec: SnapshotCodec) -> None:
        super().__init__(transcoder=MsgspecTranscoder())
        self.codec = codec

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if not isinstance(domain_event, Snapshot):
            raise TypeError(f"expected a Snapshot, got {type(domain_event).__qualname__}")
        state = {"aggregateId": domain_event.aggregate_id, "state": domain_event.state}
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=self.codec.snapshot_type,
            state=self.transcoder.encode(state),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Snapshot:
        data = self.transcoder.decode(stored_event.state)
        return Snapshot(
            str(stored_event.originator_id),
            stored_event.originator_version,
            data["aggregateId"],
            data["state"],
            self.codec,
        )
