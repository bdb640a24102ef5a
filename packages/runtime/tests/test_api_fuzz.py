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
from sqlalchemy import select

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.tables import jobctrl_settings
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.runtime.api.workflow_control import InMemoryWorkflowControl
from jobctrl.testing.runtime.api_seed import beat, discover_job, fail_stage, project, start_run

from .api_world import NOW
from .conftest import RunningApi, run_api

TOKEN = secrets.token_urlsafe(32)


class Fuzzed:
    def __init__(self, api: RunningApi, store: EventStore, database: Database, token: str | None) -> None:
        self.api = api
        self.store = store
        self.database = database
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def written(self) -> tuple[int, list[str]]:
        """The log head and the saved settings rows: what a refused request must leave alone."""
        with self.database.read() as conn:
            rows = [str(r) for r in conn.execute(select(jobctrl_settings))]
        return self.store.head_position(), rows


@pytest.fixture(params=[None, TOKEN], ids=["no-token", "token"])
def fuzz_target(request: pytest.FixtureRequest, db_url: str, database: Database) -> Iterator[Fuzzed]:
    store = EventStore(database, registry())
    token: str | None = request.param
    config = ApiConfig(
        database_url=db_url,
        sse_poll_s=0.05,
        control=InMemoryWorkflowControl(),
        clock=FixedClock(NOW),
        api_token=token,
    )
    for api in run_api(config):
        # Something for the generated ids to hit: a job with a failed stage, an open Discover run.
        discover_job(store, "j1")
        fail_stage(store, "j1", "score")
        start_run(store, "discover-local", "r1")
        beat(database, NOW - timedelta(seconds=5))
        project(database)
        yield Fuzzed(api, store, database, token)


def test_no_5xx_and_nothing_written_on_rejected_input(fuzz_target: Fuzzed) -> None:
    schema = schemathesis.openapi.from_url(
        f"{fuzz_target.api.base_url}/openapi.json", headers=fuzz_target.headers
    )
    tried: list[str] = []
    rejected: list[int] = []
    operations = [r.ok() for r in schema.get_all_operations()]
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
            assert response.status_code < 500, f"{where}: {response.status_code} {response.text}"
            if 400 <= response.status_code < 500:
                rejected.append(response.status_code)
                assert fuzz_target.written() == before, f"{where} wrote on a {response.status_code}"
                assert set(response.json()) == {"error"}, response.text

        try:
            check()
        except Unsatisfiable:
            # Nothing to negate (an operation without parameters or body): there is no bad input.
            assert mode is GenerationMode.NEGATIVE, operation.path
    assert len(tried) >= 24, tried
    assert 422 in rejected and 404 in rejected  # the nothing-written guard really ran on refusals
