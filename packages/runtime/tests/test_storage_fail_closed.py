"""Storage loss fails closed (ADR 0102; issue #18, rows 2 and 9): a database deleted, replaced,
read-only or full under a running API answers a typed 503 ``storage_unavailable`` with its reason on
every route and on ``/v1/health``; the CLI exits 3 and never creates a second, empty database where
one was.  A real uvicorn server, real files, a real full (tmpfs) and read-only (remounted) volume."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import httpx
import psycopg
import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from jobctrl.kernel.errors import StorageUnavailable
from jobctrl.kernel.store import Database, identity_marker, open_database, storage_failure
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.runtime.cli import app as cli
from jobctrl.testing.figures import Figures
from jobctrl.testing.plugin import PgSchema

from .conftest import RunningApi, run_api

ENVELOPE = (
    '{"eventType": "JobDiscovered", "tenantId": "local", "occurredAt": "2026-03-01T00:00:00.000Z", '
    '"payload": {"jobId": "j1", "postingUrl": "https://jobs.example/1", "source": "s", "employer": "Acme", '
    '"metadata": {}, "discoveredAt": "2026-03-01T00:00:00.000Z"}}\n'
)


def _profile(text: str) -> dict[str, object]:
    return {"summary": [{"id": "sum-1", "text": text}]}


def _storage_error(response: httpx.Response, reason: str) -> None:
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert error["code"] == "storage_unavailable" and error["reason"] == reason, error


def _answer(response: httpx.Response) -> str:
    """What a fault reached the caller as: ``503/disk_full`` for a typed storage error, else the status
    and whatever code it carried."""
    try:
        error = response.json().get("error") or {}
    except ValueError:
        return f"{response.status_code}/not-json"
    if error.get("code") == "storage_unavailable":
        return f"{response.status_code}/{error.get('reason')}"
    return f"{response.status_code}/{error.get('code', 'ok')}"


def _fault_figure(
    figures: Figures,
    fault: str,
    reason: str,
    write: httpx.Response,
    health: httpx.Response,
    intact: bool,
    kind: str = "sqlite",
) -> None:
    """The storage-fault row of the reliability table (issue #17): a write's and /v1/health's answers."""
    measured = f"write {_answer(write)}, health {_answer(health)}, " + (
        "intact" if intact else "HALF WRITTEN"
    )
    goal = f"write 503/{reason}, health 503/{reason}, intact"
    figures.record(f"storage fault: {fault} ({kind})", measured, goal=goal, met=measured == goal)


def _api(url: str) -> Iterator[RunningApi]:
    yield from run_api(ApiConfig(database_url=url, sse_poll_s=0.05))


def _import(home: Path, envelopes: Path, url: str | None = None) -> tuple[int, str]:
    env = {"JOBCTRL_HOME": str(home)}
    if url is not None:
        env["JOBCTRL_DATABASE_URL"] = url
    result = CliRunner().invoke(cli, ["events", "import", str(envelopes)], env=env)
    return result.exit_code, result.output


@pytest.fixture
def envelopes(tmp_path: Path) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_text(ENVELOPE, encoding="utf-8")
    return path


def test_a_database_deleted_under_a_running_server_fails_closed(
    tmp_path: Path, envelopes: Path, figures: Figures
) -> None:
    home = tmp_path / "home"
    db_file = home / "jobctrl.db"
    url = f"sqlite:///{db_file}"
    for api in _api(url):
        base = api.base_url
        assert httpx.patch(f"{base}/v1/profile", json=_profile("before"), timeout=10).status_code == 200
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db_file}{suffix}").unlink(missing_ok=True)
        write = httpx.patch(f"{base}/v1/profile", json=_profile("after"), timeout=10)
        health = httpx.get(f"{base}/v1/health", timeout=10)
        _fault_figure(figures, "database file deleted under a running server", "missing", write, health,
                      intact=not db_file.exists())  # fmt: skip
        _storage_error(write, "missing")
        _storage_error(httpx.patch(f"{base}/v1/settings", json={"autoApply": True}, timeout=10), "missing")
        _storage_error(httpx.get(f"{base}/v1/jobs", timeout=10), "missing")
        health = httpx.get(f"{base}/v1/health", timeout=10)
        _storage_error(health, "missing")
        assert health.json()["status"] == "unavailable"
        assert not db_file.exists()  # nothing wrote a new, empty database
    code, output = _import(home, envelopes)  # the CLI on the home that had a database
    assert code == 3, output
    assert "storage unavailable (missing)" in output and str(db_file) in output
    assert not db_file.exists()


def test_a_fresh_home_gets_its_database(tmp_path: Path, envelopes: Path) -> None:
    home = tmp_path / "fresh"
    code, output = _import(home, envelopes)
    assert code == 0, output
    assert (home / "jobctrl.db").exists() and identity_marker(home / "jobctrl.db").exists()
    code, output = _import(home, envelopes)  # and opens it again as the same database
    assert code == 0 and "already present 1" in output, output


def test_a_replaced_database_fails_closed(tmp_path: Path, envelopes: Path) -> None:
    db_file = tmp_path / "jobctrl.db"
    other = tmp_path / "other" / "jobctrl.db"
    open_database(f"sqlite:///{other}").dispose()  # a different JobCtrl database
    url = f"sqlite:///{db_file}"
    for api in _api(url):
        assert (
            httpx.patch(f"{api.base_url}/v1/settings", json={"minFitScore": 6}, timeout=10).status_code == 200
        )
        for suffix in ("-wal", "-shm"):  # a restore replaces the whole database, not just its main file
            Path(f"{db_file}{suffix}").unlink(missing_ok=True)
        os.replace(other, db_file)
        _storage_error(
            httpx.patch(f"{api.base_url}/v1/settings", json={"minFitScore": 5}, timeout=10), "replaced"
        )
        _storage_error(httpx.get(f"{api.base_url}/v1/health", timeout=10), "replaced")
    code, output = _import(tmp_path, envelopes, url)  # the marker names the original
    assert code == 3 and "storage unavailable (replaced)" in output, output


@pytest.mark.both_databases
def test_the_same_database_reopens_and_health_is_ok(db_url: str) -> None:
    first = open_database(db_url)
    second = open_database(db_url)
    try:
        assert first.identity.database_id and first.identity.database_id == second.identity.database_id
        assert first.health() is None
    finally:
        first.dispose()
        second.dispose()


def test_postgres_with_its_tables_dropped_fails_closed() -> None:
    schema = PgSchema()
    try:
        for api in _api(schema.url):
            assert (
                httpx.patch(f"{api.base_url}/v1/profile", json=_profile("x"), timeout=10).status_code == 200
            )
            admin = open_database(schema.url)
            try:
                with admin.engine.connect() as conn, conn.begin():
                    conn.execute(text(f'DROP SCHEMA "{schema.name}" CASCADE'))
                    conn.execute(text(f'CREATE SCHEMA "{schema.name}"'))
            finally:
                admin.dispose()
            _storage_error(
                httpx.patch(f"{api.base_url}/v1/profile", json=_profile("y"), timeout=10), "missing"
            )
            _storage_error(httpx.get(f"{api.base_url}/v1/jobs", timeout=10), "missing")
            _storage_error(httpx.get(f"{api.base_url}/v1/health", timeout=10), "missing")
    finally:
        schema.drop()


def test_postgres_read_only_is_a_typed_503(figures: Figures) -> None:
    schema = PgSchema()
    try:
        for api in _api(schema.url):  # creates every table
            assert httpx.get(f"{api.base_url}/v1/health", timeout=10).status_code == 200
        read_only = schema.url + "%20-cdefault_transaction_read_only%3Don"
        for api in _api(read_only):
            before = httpx.get(f"{api.base_url}/v1/settings", timeout=10).json()
            write = httpx.patch(f"{api.base_url}/v1/settings", json={"minFitScore": 5}, timeout=10)
            health = httpx.get(f"{api.base_url}/v1/health", timeout=10)
            intact = httpx.get(f"{api.base_url}/v1/settings", timeout=10).json() == before
            _fault_figure(figures, "read-only database", "read_only", write, health, intact, "postgres")
            _storage_error(write, "read_only")
            _storage_error(health, "read_only")
            assert intact
            assert httpx.get(f"{api.base_url}/v1/settings", timeout=10).status_code == 200  # reads still work
    finally:
        schema.drop()


@pytest.fixture
def volume(tmp_path: Path) -> Iterator[Path]:
    """A real 8 MiB tmpfs (we run as root): fills up, and remounts read-only, for real."""
    mount = tmp_path / "volume"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_full_disk_is_a_typed_503_and_health_says_so(volume: Path, figures: Figures) -> None:
    for api in _api(f"sqlite:///{volume / 'jobctrl.db'}"):
        base = api.base_url
        assert httpx.get(f"{base}/v1/health", timeout=10).status_code == 200
        filler = volume / "filler"
        with filler.open("wb", buffering=0) as out:  # unbuffered: close() has nothing left to flush
            try:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()
            except OSError:
                pass
        answers, saved = [], httpx.get(f"{base}/v1/profile", timeout=10).json()
        for attempt in range(300):  # each save is a new ~40 kB revision: one soon finds no room
            big = {
                "summary": [{"id": f"s{i}", "text": f"{attempt:03d}{i:02d}" + "x" * 1900} for i in range(20)]
            }
            answer = httpx.patch(f"{base}/v1/profile", json=big, timeout=10)
            answers.append(answer.status_code)
            if answer.status_code != 200:
                break
            saved = answer.json()
        health = httpx.get(f"{base}/v1/health", timeout=10)
        # Nothing half written: the profile reads back as the last save that succeeded, and the file
        # passes SQLite's own integrity check.
        intact = httpx.get(f"{base}/v1/profile", timeout=10).json() == saved and _integrity(volume)
        _fault_figure(figures, "disk full", "disk_full", answer, health, intact)
        _storage_error(answer, "disk_full")
        _storage_error(health, "disk_full")
        assert intact
        filler.unlink()
        assert httpx.get(f"{base}/v1/health", timeout=10).status_code == 200  # space back, writes back
        assert httpx.patch(f"{base}/v1/profile", json=big, timeout=10).status_code == 200


def test_a_read_only_database_is_a_typed_503(tmp_path: Path, figures: Figures) -> None:
    """Read-only by SQLite's ``mode=ro`` (as root, ``chmod`` does not stop a write, and a volume with
    files open for writing cannot be remounted read-only)."""
    db_file = tmp_path / "jobctrl.db"
    for api in _api(f"sqlite:///{db_file}"):  # creates every table
        assert httpx.get(f"{api.base_url}/v1/health", timeout=10).status_code == 200
    for api in _api(f"sqlite:///file:{db_file}?mode=ro&uri=true"):
        base = api.base_url
        before = httpx.get(f"{base}/v1/settings", timeout=10).json()
        write = httpx.patch(f"{base}/v1/settings", json={"minFitScore": 5}, timeout=10)
        health = httpx.get(f"{base}/v1/health", timeout=10)
        intact = httpx.get(f"{base}/v1/settings", timeout=10).json() == before
        _fault_figure(figures, "read-only database", "read_only", write, health, intact)
        _storage_error(write, "read_only")
        _storage_error(health, "read_only")
        assert intact
        assert httpx.get(f"{base}/v1/settings", timeout=10).status_code == 200  # reads still work


def test_postgres_disk_full_and_lost_connections_are_classified() -> None:
    """PostgreSQL's disk-full cannot be produced on the shared server; its SQLSTATE is mapped."""
    assert storage_failure(psycopg.errors.DiskFull("could not extend file")).reason == "disk_full"  # type: ignore[union-attr]
    assert storage_failure(psycopg.errors.ReadOnlySqlTransaction("ro")).reason == "read_only"  # type: ignore[union-attr]
    assert storage_failure(psycopg.errors.AdminShutdown("bye")).reason == "unreachable"  # type: ignore[union-attr]
    assert storage_failure(ValueError("not storage")) is None
    assert isinstance(storage_failure(StorageUnavailable("missing", "m")), StorageUnavailable)


def test_the_cli_exits_3_on_a_replaced_marker(tmp_path: Path, database: Database, envelopes: Path) -> None:
    db_file = Path(database.engine.url.database or "")
    identity_marker(db_file).write_text("someone-else\n", encoding="utf-8")
    code, output = _import(tmp_path, envelopes, f"sqlite:///{db_file}")
    assert code == 3 and "remove the marker" in output, output
    shutil.copy(db_file, tmp_path / "copy.db")  # a copy elsewhere is a database of its own
    assert _import(tmp_path, envelopes, f"sqlite:///{tmp_path / 'copy.db'}")[0] == 0


def _integrity(volume: Path) -> bool:
    """SQLite's own ``PRAGMA integrity_check`` of the database on the volume says ``ok``."""
    with closing(sqlite3.connect(f"file:{volume / 'jobctrl.db'}?mode=ro", uri=True)) as conn:
        return bool(conn.execute("PRAGMA integrity_check").fetchone() == ("ok",))
