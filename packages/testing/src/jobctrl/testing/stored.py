"""Read back the stored events of one type, decoded and typed as that event class.

A scenario that checks what was written (``JobSourceObserved``, ``SourceCrawlRecorded``, ...) reads
the log through the store's registry; ``events_of(store, SourceCrawlRecorded)`` gives a
``list[SourceCrawlRecorded]`` in log order, so the fields a ``then`` step compares are type-checked.
"""

from __future__ import annotations

from typing import TypeVar

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.store import EventStore

E = TypeVar("E", bound=DomainEvent)


def events_of(store: EventStore, event_cls: type[E], *, limit: int = 10_000) -> list[E]:
    """Every stored ``event_cls`` (up to ``limit``), decoded by the store's registry, in log order."""
    found: list[E] = []
    for stored in store.read_all(limit=limit, types=[event_cls.event_type]):
        event = store.registry.decode(stored)
        assert isinstance(event, event_cls), f"{stored.event_type} decoded as {type(event).__name__}"
        found.append(event)
    return found
