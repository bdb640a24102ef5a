"""A running API (in-process ASGI client) over a real database, with the in-memory Temporal adapter
and a fixed clock, plus the store the test seeds through."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi.testclient import TestClient

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.workflow_control import InMemoryWorkflowControl
from jobctrl.testing.runtime.api_seed import project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@dataclass
class ApiWorld:
    client: TestClient
    db: Database
    store: EventStore
    control: InMemoryWorkflowControl
    clock: FixedClock

    def head(self) -> int:
        return self.store.head_position()

    def project(self) -> None:
        project(self.db)


def api_world(db_url: str, database: Database, *, with_temporal: bool = True) -> Iterator[ApiWorld]:
    control = InMemoryWorkflowControl()
    clock = FixedClock(NOW)
    app = create_app(
        ApiConfig(
            database_url=db_url, sse_poll_s=0.05, control=control if with_temporal else None, clock=clock
        )
    )
    store = EventStore(database, registry())
    with TestClient(app, raise_server_exceptions=False) as client:
        yield ApiWorld(client, database, store, control, clock)
    gc.collect()  # surface a leaked connection in the test that leaked it
