"""``GET /v1/pipeline/operations`` served by a real uvicorn server over a real database."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

from jobctrl.kernel.store import Database
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.runtime.api.operations import database_identity
from jobctrl.runtime.api.operations.inventory import expected_app_dir
from jobctrl.runtime.telemetry.heartbeat import RuntimeIdentity, create_table, write_heartbeat
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry

from .conftest import RunningApi, run_api

pytestmark = pytest.mark.both_databases


@pytest.fixture
def api(db_url: str) -> Iterator[RunningApi]:
    yield from run_api(ApiConfig(database_url=db_url))


def test_an_empty_installation_reports_no_inventory_rather_than_zero(api: RunningApi) -> None:
    body = httpx.get(f"{api.base_url}/v1/pipeline/operations", timeout=30).json()
    assert body["etaEstimatorVersion"] == "pipeline-eta-v1"
    assert body["freshness"] == "unavailable"
    assert body["activeItemsTotal"] is None and body["activeStageCounts"] is None
    assert body["execution"] is None
    assert body["overallEta"]["status"] == "unavailable"
    assert {s["scope"] for s in body["stages"]} == {
        "current_execution",
        "execution_sweep",
        "global_outside_execution",
    }


def test_a_fresh_worker_heartbeat_shows_up_as_capacity(api: RunningApi, database: Database) -> None:
    create_table(database)
    telemetry = RuntimeTelemetry()
    telemetry.begin("tailor", "discover-local", "r", 1)
    now = datetime.now(UTC)
    mine = database_identity(database)
    identity = RuntimeIdentity.current(
        app_dir=expected_app_dir(mine), db_path=mine, task_queue="q", slots=3, now=now
    )
    write_heartbeat(database, identity, telemetry, now, None)
    # The same database reported from another app directory is another installation too.
    stray = RuntimeIdentity.current(app_dir="/elsewhere", db_path=mine, task_queue="q", slots=5, now=now)
    write_heartbeat(database, stray, RuntimeTelemetry(), now, None)
    other = RuntimeIdentity.current(app_dir="/b", db_path="/b/other.db", task_queue="q", slots=9, now=now)
    write_heartbeat(database, other, RuntimeTelemetry(), now, None)  # another installation's worker
    body = httpx.get(f"{api.base_url}/v1/pipeline/operations", timeout=30).json()
    assert body["capacity"]["status"] == "shared_activity_pool"
    assert body["capacity"]["slotsConfigured"] == 3  # the other installation's 9 slots are not ours
    assert body["capacity"]["workersFresh"] == 1
    assert body["capacity"]["slotsAvailable"] == 2
    assert body["activeItemsTotal"] == 1
    assert body["activeItems"][0]["activity"] == "tailor"
    assert "/v1/pipeline/operations" in httpx.get(f"{api.base_url}/openapi.json", timeout=30).text
