"""The published OpenAPI schema, fuzzed with schemathesis against a live server, with the API token off
and on: no 5xx anywhere, and a rejected request (4xx) never writes (the log head and the saved
settings do not move)."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.core.result import Ok
from sqlalchemy import select

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.adapters.tables import jobctrl_settings
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.testing.figures import Figures
from jobctrl.testing.runtime.api_seed import beat, discover_job, fail_stage, project, start_run
from jobctrl.testing.runtime.temporal_probe import TemporalProbe

from .api_world import NOW
from .conftest import RunningApi, run_api

TOKEN = secrets.token_urlsafe(32)
IDLE_QUEUE = "api-fuzz-idle"


class Fuzzed:
    def __init__(self, api: RunningApi, store: EventStore, database: Database, token: str | None) -> None:
        self.api = api
        self.store = store
        self.database = database
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.token_on = token is not None

    def written(self) -> tuple[int, list[str]]:
        """The log head and the saved settings rows: what a refused request must leave alone."""
        with self.database.read() as conn:
            rows = [str(r) for r in conn.execute(select(jobctrl_settings))]
        return self.store.head_position(), rows


@pytest.fixture(params=[None, TOKEN], ids=["no-token", "token"])
def fuzz_target(
    request: pytest.FixtureRequest, db_url: str, database: Database, temporal_address: str
) -> Iterator[Fuzzed]:
    store = EventStore(database, registry())
    token: str | None = request.param
    config = ApiConfig(
        database_url=db_url,
        sse_poll_s=0.05,
        control=TemporalWorkflowControl(temporal_address),  # the real adapter on the dev server
        clock=FixedClock(NOW),
        api_token=token,
    )
    probe = TemporalProbe(temporal_address)
    try:
        for api in run_api(config):
            # Something for the generated ids to hit: a job with a failed stage, an open Discover run
            # (a real execution on a queue nothing polls, so a fuzzed cancel reaches a real run).
            discover_job(store, "j1")
            fail_stage(store, "j1", "score")
            start_run(
                store, "discover-local", probe.start_idle("DiscoverWorkflow", "discover-local", IDLE_QUEUE)
            )
            beat(database, NOW - timedelta(seconds=5))
            project(database)
            yield Fuzzed(api, store, database, token)
    finally:
        # Whatever the fuzz started on the shared dev server is closed, so no later test meets it.
        probe.touched.update(_started_ids(store))
        probe.close()


def _started_ids(store: EventStore) -> set[str]:
    decoded = (store.registry.decode(r) for r in store.read_all(limit=100_000, types=["WorkflowStarted"]))
    return {str(getattr(e, "workflow_id", "")) for e in decoded} - {""}


def test_no_5xx_and_nothing_written_on_rejected_input(
    fuzz_target: Fuzzed, db_kind: str, figures: Figures
) -> None:
    schema = schemathesis.openapi.from_url(
        f"{fuzz_target.api.base_url}/openapi.json", headers=fuzz_target.headers
    )
    tried: list[str] = []
    rejected: list[int] = []
    calls: list[str] = []
    crashes: list[str] = []  # a 5xx, or a refusal that is not the typed {"error": ...} body
    wrote: list[str] = []
    operations = []
    for found in schema.get_all_operations():
        assert isinstance(found, Ok), found.err()  # every operation of the served document parses
        operations.append(found.ok())
    for operation, mode in itertools.product(operations, list(GenerationMode)):
        if operation.path == "/v1/events/stream":
            continue  # an endless stream; covered by test_runtime_sse
        tried.append(f"{mode.value} {operation.method.upper()} {operation.path}")

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case: Any) -> None:
            before = fuzz_target.written()
            response = case.call(timeout=10, headers=fuzz_target.headers)
            where = f"{case.method} {case.formatted_path}"
            calls.append(where)
            if response.status_code >= 500:
                crashes.append(where)
            assert response.status_code < 500, f"{where}: {response.status_code} {response.text}"
            if 400 <= response.status_code < 500:
                rejected.append(response.status_code)
                if fuzz_target.written() != before:
                    wrote.append(where)
                assert not wrote, f"{where} wrote on a {response.status_code}"
                typed = _typed(response)
                if not typed:
                    crashes.append(where)
                assert typed, response.text

        try:
            check()
        except Unsatisfiable:
            # Nothing to negate (an operation without parameters or body): there is no bad input.
            assert mode is GenerationMode.NEGATIVE, operation.path
        except BaseException:
            _record(figures, fuzz_target, db_kind, tried, calls, rejected, crashes, wrote)
            raise
    _record(figures, fuzz_target, db_kind, tried, calls, rejected, crashes, wrote)
    assert len(tried) >= 24, tried
    assert 422 in rejected and 404 in rejected  # the nothing-written guard really ran on refusals


def _typed(response: Any) -> bool:
    try:
        return set(response.json()) == {"error"}
    except ValueError:
        return False


def _record(
    figures: Figures,
    target: Fuzzed,
    db_kind: str,
    tried: list[str],
    calls: list[str],
    rejected: list[int],
    crashes: list[str],
    wrote: list[str],
) -> None:
    """The schemathesis row of the reliability table (issue #17)."""
    token = "token" if target.token_on else "no token"
    where = f"{len(calls)} schemathesis calls on {len(tried)} operation modes ({db_kind}, {token}; "
    where += f"{len(rejected)} 4xx)"
    figures.record(f"crashes over {where}", len(crashes), goal="0", met=not crashes)
    figures.record(f"4xx that wrote, over {where}", len(wrote), goal="0", met=not wrote)
