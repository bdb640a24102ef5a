"""``GET /v1/dashboard/summary`` serves the dashboard read model (issue #12 item 10)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.testing.runtime.api_seed import complete_run, discover_job, project, start_run


def test_the_dashboard_read_model_is_served_by_a_route(database: Database, db_url: str) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    start_run(store, "discover-open", "r1")
    start_run(store, "discover-done", "r2")
    complete_run(store, "discover-done", "r2")
    discover_job(store, "j1")
    project(database)
    with TestClient(create_app(ApiConfig(database_url=db_url))) as client:
        summary = client.get("/v1/dashboard/summary")
    assert summary.status_code == 200, summary.text
    body = summary.json()
    assert body["workflowsRunning"] == 1
    assert body["workflowsByStatus"] == {"in_progress": 1, "succeeded": 1}
    assert body["staleRunningStages"] == 0
