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

Underneath, this is the ``eventsourcing`` library (ADR 0005): each repository owns a
``JobCtrlApplication`` whose ``Repository`` loads aggregates (from the latest snapshot when the class
sets ``snapshot_interval``) and whose ``save`` maps pending events through our mapper into
``job_events``.  ``Aggregate`` implements the library's aggregate protocols (``id``, ``version``,
``collect_events``) rather than subclassing its metaclass-driven ``Aggregate``, so a subclass stays a
plain class whose ``__init__`` records nothing.

Snapshots are opt-in per class::

    class Job(Aggregate):
        stream_prefix = "job"
        snapshot_interval = 50          # a snapshot each time a save crosses a multiple of 50
        tags: set[str]                  # annotate attributes whose JSON form differs (sets, Structs)

A snapshot is written in the save's own transaction and is only a cache (ADR 0005).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from eventsourcing.application import AggregateNotFoundError

from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.es.application import JobCtrlApplication
from jobctrl.kernel.es.mapper import StreamEvent, event_id_for
from jobctrl.kernel.es.recorder import SaveContext
from jobctrl.kernel.es.snapshots import Snapshot, SnapshotCodec, SnapshotMapper
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store.event_store import AppendResult, EventStore, WriteTransaction

__all__ = [
    "Aggregate",
    "AggregateNotFound",
    "AggregateRepository",
    "applies",
    "event_id_for",
    "save_all",
]

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
    # Write a snapshot every this many events (None: never).  Bump ``snapshot_state_version`` when
    # the attributes change shape, so old snapshots are ignored rather than restored wrongly.
    snapshot_interval: ClassVar[int | None] = None
    snapshot_state_version: ClassVar[int] = 1
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

    def collect_events(self) -> list[StreamEvent]:
        """The library's collect step.  Pending events stay pending until the save commits
        (``_committed``), so a refused save leaves the object as it was for the caller to discard."""
        return [StreamEvent(self.stream_id, self.version + i, e) for i, e in enumerate(self._pending, 1)]

    @classmethod
    def snapshot_codec(cls) -> SnapshotCodec:
        return SnapshotCodec(cls, cls.stream_prefix or cls.__name__, cls.snapshot_state_version)

    def _record(self, event: DomainEvent) -> None:
        self.apply(event)
        self._pending.append(event)

    def _committed(self) -> None:
        self.version += len(self._pending)
        self._pending.clear()


_APPLICATIONS: weakref.WeakKeyDictionary[EventStore, dict[SnapshotCodec | None, JobCtrlApplication]] = (
    weakref.WeakKeyDictionary()
)
_APPLICATIONS_LOCK = threading.Lock()


def _application(store: EventStore, codec: SnapshotCodec | None) -> JobCtrlApplication:
    """One library ``Application`` per store and snapshot codec, shared by the repositories built
    on them (ADR 0375): it holds no state of a load or a save, and building one (factory, mapper,
    recorders, repository) cost more than the load of a short stream."""
    with _APPLICATIONS_LOCK:
        apps = _APPLICATIONS.setdefault(store, {})
        app = apps.get(codec)
        if app is None:
            app = apps[codec] = JobCtrlApplication(store, codec)
        return app


class AggregateRepository(Generic[A]):
    def __init__(
        self,
        store: EventStore,
        factory: Callable[[str], A],
        stream_id_for: Callable[[str], str],
        *,
        clock: Clock | None = None,
        tenant_id: str = LOCAL_TENANT,
        snapshot_codec: SnapshotCodec | None = None,
        snapshot_interval: int | None = None,
    ) -> None:
        if snapshot_interval is not None and (snapshot_interval < 1 or snapshot_codec is None):
            raise ValueError("snapshots need an interval >= 1 and a snapshot codec")
        self.store = store
        self._factory = factory
        self._stream_id_for = stream_id_for
        self.clock = clock or SystemClock()
        self.tenant_id = tenant_id
        self.snapshot_interval = snapshot_interval
        self._codec = snapshot_codec if snapshot_interval else None
        self.application = _application(store, self._codec)

    @classmethod
    def for_class(cls, store: EventStore, aggregate_cls: type[A], **kwargs: Any) -> AggregateRepository[A]:
        interval = kwargs.pop("snapshot_interval", aggregate_cls.snapshot_interval)
        return cls(
            store,
            aggregate_cls,
            aggregate_cls.stream_id_for,
            snapshot_codec=aggregate_cls.snapshot_codec(),
            snapshot_interval=interval,
            **kwargs,
        )

    def load(self, aggregate_id: str) -> A | None:
        def project(aggregate: A | None, events: Any) -> A | None:
            for event in events:
                if aggregate is None and isinstance(event, StreamEvent):
                    aggregate = self._factory(aggregate_id)
                aggregate = event.mutate(aggregate)
            return aggregate

        try:
            loaded: A = self.application.repository.get(
                self._stream_id_for(aggregate_id), projector_func=project
            )
        except AggregateNotFoundError:
            return None
        return loaded

    def get(self, aggregate_id: str) -> A:
        aggregate = self.load(aggregate_id)
        if aggregate is None:
            raise AggregateNotFound(f"no stream {self._stream_id_for(aggregate_id)!r}")
        return aggregate

    def new_events(
        self, aggregate: A, *, occurred_at: datetime | None = None, **metadata: Any
    ) -> list[NewEvent]:
        """The pending events as the store will hold them (deterministic ids, this save's envelope)."""
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

    def save(
        self,
        *aggregates: A,
        tx: WriteTransaction | None = None,
        occurred_at: datetime | None = None,
        **metadata: Any,
    ) -> list[AppendResult]:
        """Append every aggregate's pending events in one transaction (or in ``tx``).

        ``metadata`` is the envelope: ``correlation_id``, ``causation_id``, ``workflow_id``,
        ``run_id``, ``attempt``.  Snapshots due at this save are written in the same transaction.
        """
        pending = [a for a in aggregates if a.pending_events]
        if not pending:
            return []
        ctx = SaveContext(
            occurred_at=isoformat(occurred_at or self.clock.now()),
            tenant_id=self.tenant_id,
            metadata=metadata,
            tx=tx,
        )
        if self._codec is not None and self.snapshot_interval:
            self._snapshots_due(pending, ctx, self._codec, self.snapshot_interval)
        self.application.save(*pending, jobctrl=ctx)
        if tx is None:
            _mark_committed(pending)
        else:
            # The caller's transaction may still roll back: until it commits, the objects keep their
            # pending events and version, so a retry saves them again instead of silently nothing.
            tx.after_commit(lambda: _mark_committed(pending))
        return ctx.results

    def _snapshots_due(self, pending: list[A], ctx: SaveContext, codec: SnapshotCodec, interval: int) -> None:
        mapper = SnapshotMapper(codec)
        for aggregate in pending:
            after = aggregate.version + len(aggregate.pending_events)
            if after // interval > aggregate.version // interval:  # this save crosses a multiple
                ctx.snapshots.append(mapper.to_stored_event(Snapshot.take(aggregate)))
        ctx.snapshot_type, ctx.snapshot_state_version = codec.snapshot_type, codec.state_version
        ctx.taken_at = ctx.occurred_at


def _mark_committed(aggregates: Sequence[Aggregate]) -> None:
    for aggregate in aggregates:
        aggregate._committed()


def save_all(store: EventStore, saves: Sequence[tuple[AggregateRepository[Any], Aggregate]]) -> None:
    """Commit pending events of aggregates from several repositories together (related facts)."""
    with store.transaction() as tx:
        for repo, aggregate in saves:
            repo.save(aggregate, tx=tx)
