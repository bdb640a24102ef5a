"""Fixtures for the projection suites: a store with its schema and a log writer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Append(Protocol):
    """The ``append`` fixture: ``events`` as one stream, with optional workflow/run metadata."""

    def __call__(
        self,
        events: Sequence[DomainEvent],
        *,
        stream: str = ...,
        workflow_id: str | None = ...,
        run_id: str | None = ...,
    ) -> None: ...


@pytest.fixture
def reg() -> EventRegistry:
    return registry()


@pytest.fixture
def store(database: Database, reg: EventRegistry) -> EventStore:
    s = EventStore(database, reg)
    s.create_schema()
    return s


@pytest.fixture
def append(store: EventStore) -> Append:
    """Append events (one stream per call) with optional workflow/run metadata."""

    def _append(
        events: Sequence[DomainEvent],
        *,
        stream: str = "s",
        workflow_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        store.append(
            stream,
            None,
            [NewEvent.of(e, occurred_at=NOW, workflow_id=workflow_id, run_id=run_id) for e in events],
        )

    return _append
