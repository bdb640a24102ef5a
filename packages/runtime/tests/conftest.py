"""Fixtures for the runtime tests: a real uvicorn server on a free port in a background thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import uvicorn
from fastapi import FastAPI

from jobctrl.kernel.store import Database
from jobctrl.runtime.api.app import ApiConfig, Services, create_app
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.server import shared_dev_server


@dataclass
class RunningApi:
    app: FastAPI
    base_url: str

    @property
    def services(self) -> Services:
        result: Services = self.app.state.services
        return result


def run_api(config: ApiConfig, log_level: str = "warning") -> Iterator[RunningApi]:
    app = create_app(config)
    server = uvicorn.Server(  # port 0: the server binds a free port itself, read back once it listens
        uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level=log_level, lifespan="on", timeout_graceful_shutdown=3
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("API server did not start")
        time.sleep(0.02)
    port = int(server.servers[0].sockets[0].getsockname()[1])
    try:
        yield RunningApi(app, f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        assert not thread.is_alive(), "API server did not shut down"


@pytest.fixture
def api(db_url: str) -> Iterator[RunningApi]:
    yield from run_api(ApiConfig(database_url=db_url, sse_poll_s=0.05, keepalive_s=0.3, heartbeat_s=0.6))


@pytest.fixture(scope="session")
def temporal_address(pytestconfig: pytest.Config) -> str:
    return shared_dev_server(pytestconfig)


@pytest.fixture
def harness(temporal_address: str, database: Database) -> Harness:
    return Harness(temporal_address, database)
