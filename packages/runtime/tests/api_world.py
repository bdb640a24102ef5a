"""A running API (in-process ASGI client) over a real database and a fixed clock, plus the store the
test seeds through.

With ``temporal`` (the session's dev server address) the API has the real Temporal adapter
(``TemporalWorkflowControl``); nothing polls the queue it starts on, so what it starts stays running
and ``world.temporal`` (a ``TemporalProbe``) reads it back from the server and terminates it at the
end.  Without, the API has no Temporal at all (``control=None``), as when none is configured: a route
that needs it answers 503, so a read-model test cannot pass by a double pretending a start.
"""

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
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.testing.runtime.api_seed import project
from jobctrl.testing.runtime.temporal_probe import TemporalProbe

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
#: The deterministic id of the local tenant's Discover: touched by every world, so always cleaned up.
DISCOVER_ID = "discover-local"


@dataclass
class ApiWorld:
    client: TestClient
    db: Database
    store: EventStore
    clock: FixedClock
    temporal_probe: TemporalProbe | None = None

    @property
    def temporal(self) -> TemporalProbe:
        assert self.temporal_probe is not None, "this world was built without Temporal"
        return self.temporal_probe

    def head(self) -> int:
        return self.store.head_position()

    def project(self) -> None:
        project(self.db)


def api_world(db_url: str, database: Database, *, temporal: str | None = None) -> Iterator[ApiWorld]:
    clock = FixedClock(NOW)
    control = TemporalWorkflowControl(temporal) if temporal else None
    probe = TemporalProbe(temporal) if temporal else None
    if probe is not None:
        probe.touched.add(DISCOVER_ID)
    app = create_app(ApiConfig(database_url=db_url, sse_poll_s=0.05, control=control, clock=clock))
    store = EventStore(database, registry())
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            yield ApiWorld(client, database, store, clock, probe)
    finally:
        if probe is not None:
            probe.close()
    gc.collect()  # surface a leaked connection in the test that leaked it
