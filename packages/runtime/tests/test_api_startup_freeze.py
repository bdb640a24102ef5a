"""``jobctrl serve`` freezes its start-up heap once the API has started (ADR 0450), as a worker does
(ADR 0426): its full collections then walk only what it made since (the clients' connections, the
hub's batches), not the ~300,000 objects its imports leave.

The freeze is the process's own, so the API starts in a child interpreter: the real ``create_app``
and its lifespan (the store, the read models, the hub, the projection runner), on a SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jobctrl.runtime.commands.serve import serve_config

_SERVER = """
    import gc, json, sys

    from fastapi.testclient import TestClient

    from jobctrl.kernel.heap import startup_frozen
    from jobctrl.runtime.api.app import ApiConfig, create_app

    db_path, freeze = sys.argv[1], sys.argv[2] == "1"
    kept = [object()]  # alive from start-up on
    config = ApiConfig(database_url=f"sqlite:///{db_path}", run_projections=True, freeze_startup=freeze)
    app = create_app(config)
    with TestClient(app) as client:  # the lifespan has run: the API is up
        health = client.get("/v1/health").status_code
        out = {
            "health": health, "startup": startup_frozen(), "frozen": gc.get_freeze_count(),
            "kept_frozen": not any(o is kept for o in gc.get_objects()),
        }
    print(json.dumps(out))
"""


def _server(tmp_path: Path, freeze: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env["JOBCTRL_HOME"] = str(tmp_path / "home")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_SERVER), str(tmp_path / f"api{freeze}.db"), str(int(freeze))],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.integration
def test_a_started_api_freezes_its_startup_heap_when_the_process_is_its_own(tmp_path: Path) -> None:
    out = _server(tmp_path, freeze=True)
    frozen = out["frozen"]
    assert out["health"] == 200 and out["startup"] is True and out["kept_frozen"] is True
    assert isinstance(frozen, int) and frozen > 100_000  # the imports and the app, out of the walks


@pytest.mark.integration
def test_an_api_built_by_a_library_caller_leaves_the_heap_alone(tmp_path: Path) -> None:
    out = _server(tmp_path, freeze=False)
    assert out["health"] == 200 and out["startup"] is False and out["frozen"] == 0
    assert out["kept_frozen"] is False


def test_jobctrl_serve_runs_the_api_with_its_startup_heap_frozen() -> None:
    config = serve_config("127.0.0.1", None, "127.0.0.1:7233", "default")
    assert config.freeze_startup is True and config.run_projections is True
    assert config.temporal_address == "127.0.0.1:7233" and config.api_token is None
