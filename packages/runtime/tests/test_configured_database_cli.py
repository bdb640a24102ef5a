"""Every command opens the configured database: ``[storage] database_url`` of ``config.toml``, with
``JOBCTRL_DATABASE_URL`` over it (ADR 0300).  ``events import`` once wrote the ``$JOBCTRL_HOME``
default while the worker read the file's PostgreSQL; these run the real CLI with no variable set."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.cli import app

pytestmark = pytest.mark.both_databases

EVENTS = [
    {
        "eventType": "StageStarted",
        "tenantId": "local",
        "occurredAt": "2026-03-01T09:00:05.000Z",
        "payload": {"jobId": job, "stage": "enrich", "attemptNumber": 1, "startedAt": "2026-03-01T09:00:05Z"},
    }
    for job in ("job-a", "job-b")
]
RUNTIME_SRC = Path(__file__).parents[1] / "src" / "jobctrl" / "runtime"
OPENER = RUNTIME_SRC / "storage.py"


@pytest.fixture
def home(tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(f'[storage]\ndatabase_url = "{db_url}"\n')
    monkeypatch.setenv("JOBCTRL_HOME", str(home))
    monkeypatch.delenv("JOBCTRL_DATABASE_URL", raising=False)
    return home


@pytest.fixture
def events_file(tmp_path: Path) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in EVENTS))
    return path


def _count(url: str, sql: str) -> int:
    db = open_database(url)
    try:
        with db.engine.connect() as conn:
            return int(conn.execute(text(sql)).scalar_one())
    finally:
        db.dispose()


def _head(url: str) -> int:
    db = open_database(url)
    try:
        store = EventStore(db, registry())
        store.create_schema()  # a database nothing wrote to has no log yet: its head is 0
        return store.head_position()
    finally:
        db.dispose()


def test_import_rebuild_status_and_dump_use_the_configured_database(
    home: Path, events_file: Path, db_url: str
) -> None:
    cli = CliRunner()
    imported = cli.invoke(app, ["events", "import", str(events_file)])
    assert imported.exit_code == 0, imported.output
    assert "imported 2, already present 0, rejected 0, unknown keys dropped 0" in imported.stdout
    assert _head(db_url) == 2
    rebuilt = cli.invoke(app, ["projections", "rebuild"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert _count(db_url, "SELECT COUNT(*) FROM job_stage_states") == 2
    status = cli.invoke(app, ["projections", "status"])
    assert status.exit_code == 0, status.output
    assert "│    2 │         2 │   0 │" in status.stdout  # head, watermark, lag of the configured log
    dumped = cli.invoke(app, ["projections", "dump", "job_stage_states"])
    assert [row["jobId"] for row in json.loads(dumped.stdout)] == ["job-a", "job-b"]
    digest = cli.invoke(app, ["digest"])  # the applications commands open the same database
    assert digest.exit_code == 0, digest.output
    assert not list(home.glob("jobctrl.db*"))  # the $JOBCTRL_HOME default was never opened


def test_the_api_serves_the_configured_database(home: Path, events_file: Path, db_url: str) -> None:
    assert CliRunner().invoke(app, ["events", "import", str(events_file)]).exit_code == 0
    with TestClient(create_app(ApiConfig())) as client:  # `jobctrl serve` leaves the URL to the opener
        assert client.get("/v1/health").status_code == 200
    assert _count(db_url, "SELECT COUNT(*) FROM worker_runtime_heartbeats") == 0  # its tables are there
    assert not list(home.glob("jobctrl.db*"))


def test_the_environment_overrides_the_file(
    home: Path, events_file: Path, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = f"sqlite:///{tmp_path / 'from-env.db'}"
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", chosen)
    result = CliRunner().invoke(app, ["events", "import", str(events_file)])
    assert result.exit_code == 0, result.output
    assert _head(chosen) == 2
    assert _head(db_url) == 0  # the file's database holds nothing


def test_an_invalid_configuration_exits_2_naming_the_key_and_writes_nothing(
    home: Path, events_file: Path, db_url: str
) -> None:
    (home / "config.toml").write_text(f'[storage]\ndatabase_url = "{db_url}"\n[worker]\nactivity_slots = 0\n')
    result = CliRunner().invoke(app, ["events", "import", str(events_file)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback
    assert "worker.activity_slots" in result.stderr
    assert _head(db_url) == 0
    assert not list(home.glob("jobctrl.db*"))


def _openers(path: Path) -> list[str]:
    """Each call of ``open_database`` and each use of ``database_url_from_env`` in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Attribute):
            name = node.attr
        else:
            continue
        if name in ("open_database", "database_url_from_env"):
            found.append(f"{path.relative_to(RUNTIME_SRC)}:{node.lineno} {name}")
    return found


def test_no_runtime_module_opens_a_database_but_the_configured_opener() -> None:
    found = [hit for path in sorted(RUNTIME_SRC.rglob("*.py")) if path != OPENER for hit in _openers(path)]
    assert found == [], "open the database with jobctrl.runtime.storage.open_configured_database: " + str(
        found
    )
    assert _openers(OPENER)  # the scan sees the one place that does open it
