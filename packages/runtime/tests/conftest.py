"""Fixtures for the runtime tests: a real uvicorn server on a free port in a background thread, a
Chromium page on it, a home of the test's own with no configuration leaking in from the environment."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from playwright.sync_api import Page, ViewportSize, sync_playwright

from jobctrl.kernel.chromium import CHROMIUM_ARGS, CHROMIUM_PATH
from jobctrl.kernel.store import Database
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.services import Services
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


@pytest.fixture
def live(db_url: str) -> Iterator[RunningApi]:
    """The API for a browser: server-sent events polled every 50 ms."""
    yield from run_api(ApiConfig(database_url=db_url, sse_poll_s=0.05))


def chromium_page(viewport: ViewportSize | None = None) -> Iterator[Page]:
    """A page of a headless Chromium (``/usr/bin/chromium``), closed afterwards."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        try:
            yield browser.new_page(viewport=viewport) if viewport else browser.new_page()
        finally:
            browser.close()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``JOBCTRL_HOME`` at a fresh ``home`` folder (not created), no ``JOBCTRL_*``/``TEMPORAL_*`` set."""
    for name in list(os.environ):
        if name.startswith(("JOBCTRL_", "TEMPORAL_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def configured_api(
    db_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    config_toml: str,
    env: Mapping[str, str] | None = None,
) -> Iterator[TestClient]:
    """The API (in-process) on a home whose ``config.toml`` is ``config_toml``; of ``JOBCTRL_*``
    only the home and ``env`` are set."""
    for name in list(os.environ):
        if name.startswith("JOBCTRL_") and name != "JOBCTRL_HOME":
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JOBCTRL_HOME", str(home))
    (home / "config.toml").write_text(config_toml)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    with TestClient(create_app(ApiConfig(database_url=db_url)), raise_server_exceptions=False) as c:
        yield c
