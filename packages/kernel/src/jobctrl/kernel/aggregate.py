"""Event-sourced aggregates and their repository (the API contexts code against).

An aggregate's state is the fold of its stream.  A command method checks the rules against the
current state and calls ``self._record(event)`` for each fact it decides; ``_record`` applies the
event to the in-memory object and queues it.  ``AggregateRepository.save`` appends the queued events
with the version the aggregate was loaded at, so a concurrent writer makes the save fail with
``ConcurrencyConflict`` and nothing is written; the caller then discards the object and reloads.
The durable state therefore changes only when the append commits (append-before-apply), and a retry
that decides the same facts from the same state produces the same deterministic event ids, which the
store treats as an idempotent replay.

Event handlers are registered with ``@applies(EventClass)``: ``apply`` dispatches on the event class,
and an event without a handler is an error (silently ignoring a fact would corrupt state).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.ids import LOCAL_TENANT, deterministic_id
from jobctrl.kernel.store.event_store import AppendRequest, AppendResult, EventStore, WriteTransaction

E = TypeVar("E", bound=DomainEvent)
A = TypeVar("A", bound="Aggregate")


class AggregateNotFound(JobCtrlError):
    code = "not_found"
    retryable = False


def applies(event_cls: type[E]) -> Callable[[Callable[[Any, E], None]], Callable[[Any, E], None]]:
    """Mark a method as the handler of ``event_cls`` on an Aggregate subclass."""

    def mark(fn: Callable[[Any, E], None]) -> Callable[[Any, E], None]:
        fn.__applies__ = event_cls  # type: ignore[attr-defined]
        return fn

    return mark


class Aggregate:
    """Base class.  Subclasses set ``stream_prefix`` and define ``@applies`` handlers."""

    stream_prefix: ClassVar[str] = ""
    _handlers: ClassVar[dict[type[DomainEvent], Callable[[Any, Any], None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        handlers: dict[type[DomainEvent], Callable[[Any, Any], None]] = {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                target = getattr(value, "__applies__", None)
                if target is not None:
                    handlers[target] = value
        cls._handlers = handlers

    def __init__(self, aggregate_id: str) -> None:
        self.id = aggregate_id
        self.version = 0
        self._pending: list[DomainEvent] = []

    @classmethod
    def stream_id_for(cls, aggregate_id: str) -> str:
        return f"{cls.stream_prefix}-{aggregate_id}" if cls.stream_prefix else aggregate_id

    @property
    def stream_id(self) -> str:
        return self.stream_id_for(self.id)

    @property
    def pending_events(self) -> tuple[DomainEvent, ...]:
        return tuple(self._pending)

    def apply(self, event: DomainEvent) -> None:
        handler = self._handlers.get(type(event))
        if handler is None:
            raise TypeError(f"{type(self).__name__} has no handler for {event.event_type}")
        handler(self, event)

    def _record(self, event: DomainEvent) -> None:
        self.apply(event)
        self._pending.append(event)

    def _committed(self) -> None:
        self.version += len(self._pending)
        self._pending.clear()


def event_id_for(stream_id: str, version: int, event: DomainEvent) -> str:
    """Deterministic id: the same fact decided at the same stream version gets the same id."""
    digest = hashlib.sha256(msgspec.json.encode(event)).hexdigest()
    return deterministic_id("event", stream_id, str(version), event.event_type, digest)


class AggregateRepository(Generic[A]):
    def __init__(
        self,
        store: EventStore,
        factory: Callable[[str], A],
        stream_id_for: Callable[[str], str],
        *,
        clock: Clock | None = None,
        tenant_id: str = LOCAL_TENANT,
    ) -> None:
        self.store = store
        self._factory = factory
        self._stream_id_for = stream_id_for
        self.clock = clock or SystemClock()
        self.tenant_id = tenant_id

    @classmethod
    def for_class(cls, store: EventStore, aggregate_cls: type[A], **kwargs: Any) -> AggregateRepository[A]:
        return cls(store, aggregate_cls, aggregate_cls.stream_id_for, **kwargs)

    def load(self, aggregate_id: str) -> A | None:
        stored = self.store.read_stream(self._stream_id_for(aggregate_id))
        if not stored:
            return None
        aggregate = self._factory(aggregate_id)
        for row in stored:
            aggregate.apply(self.store.registry.decode(row))
        aggregate.version = stored[-1].stream_version
        return aggregate

    def get(self, aggregate_id: str) -> A:
        aggregate = self.load(aggregate_id)
        if aggregate is None:
            raise AggregateNotFound(f"no stream {self._stream_id_for(aggregate_id)!r}")
        return aggregate

    def new_events(
        self, aggregate: A, *, occurred_at: datetime | None = None, **metadata: Any
    ) -> list[NewEvent]:
        when = occurred_at or self.clock.now()
        return [
            NewEvent.of(
                event,
                occurred_at=when,
                tenant_id=self.tenant_id,
                event_id=event_id_for(aggregate.stream_id, aggregate.version + i, event),
                **metadata,
            )
            for i, event in enumerate(aggregate.pending_events, start=1)
        ]

    def save(self, *aggregates: A, tx: WriteTransaction | None = None, **metadata: Any) -> list[AppendResult]:
        """Append every aggregate's pending events in one transaction (or in ``tx``)."""
        requests = [
            AppendRequest(a.stream_id, a.version, self.new_events(a, **metadata))
            for a in aggregates
            if a.pending_events
        ]
        if tx is not None:
            results = [tx.append(r.stream_id, r.expected_version, r.events) for r in requests]
        else:
            results = self.store.append_batch(requests) if requests else []
        for aggregate in aggregates:
            aggregate._committed()
        return results


def save_all(store: EventStore, saves: Sequence[tuple[AggregateRepository[Any], Aggregate]]) -> None:
    """Commit pending events of aggregates from several repositories together (related facts)."""
    with store.transaction() as tx:
        for repo, aggregate in saves:
            repo.save(aggregate, tx=tx)
