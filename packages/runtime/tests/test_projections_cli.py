"""``jobctrl events import`` and ``jobctrl projections rebuild|status|dump`` end to end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.runtime.cli import app
from jobctrl.testing.runtime.server import shared_worker_pycache, worker_bytecode_env

pytestmark = pytest.mark.both_databases

STARTED = {
    "eventType": "WorkflowStarted",
    "tenantId": "local",
    "occurredAt": "2026-03-01T10:00:00+01:00",
    "payload": {
        "workflowId": "discover-local",
        "workflowType": "DiscoverWorkflow",
        "status": "in_progress",
        "inputSummary": {},
        "startedAt": "2026-03-01T09:00:00.000Z",
        "temporalRunId": "run-1",
        "legacyField": "x",
        "another_extra": 1,
    },
}
STAGE = {
    "eventType": "StageStarted",
    "tenantId": "local",
    "occurredAt": "2026-03-01T09:00:05.000Z",
    "payload": {"jobId": "job-b", "stage": "enrich", "attemptNumber": 1, "startedAt": "2026-03-01T09:00:05Z"},
}
STAGE_A = {**STAGE, "payload": {**STAGE["payload"], "jobId": "job-a"}}  # type: ignore[dict-item]


@pytest.fixture
def cli(db_url: str, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    return CliRunner()


def _jsonl(path: Path, *lines: object) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def _head(db_url: str) -> int:
    db = open_database(db_url)
    try:
        return EventStore(db, registry()).head_position()
    finally:
        db.dispose()


def test_a_file_with_a_bad_line_imports_nothing_and_names_every_bad_line(
    cli: CliRunner, tmp_path: Path, db_url: str
) -> None:
    file = _jsonl(
        tmp_path / "events.jsonl",
        STARTED,
        "{not json",
        {**STAGE, "eventType": "NoSuchEvent"},
        {**STAGE, "payload": {"jobId": "job-c", "stage": "sleep", "attemptNumber": 1, "startedAt": "x"}},
        STAGE,
    )
    result = cli.invoke(app, ["events", "import", str(file)])
    assert result.exit_code == 2
    assert "imported 0, already present 0, rejected 3, unknown keys dropped 2" in result.stdout
    assert "line 2" in result.stderr and "line 3" in result.stderr and "line 4" in result.stderr
    assert "nothing was imported" in result.stderr
    assert _head(db_url) == 0  # all or nothing: the two good lines were not written either


def test_import_is_idempotent_by_content_whatever_the_lines_positions(
    cli: CliRunner, tmp_path: Path, db_url: str
) -> None:
    file = _jsonl(tmp_path / "events.jsonl", STARTED, STAGE)
    first = cli.invoke(app, ["events", "import", str(file)])
    assert (
        first.exit_code == 0
        and "imported 2, already present 0, rejected 0, unknown keys dropped 2" in first.stdout
    )
    again = cli.invoke(app, ["events", "import", str(file)])
    assert "imported 0, already present 2" in again.stdout
    shifted = _jsonl(tmp_path / "shifted.jsonl", "", STAGE, STARTED, STAGE)  # blank line, reversed, repeated
    assert "imported 0, already present 3" in cli.invoke(app, ["events", "import", str(shifted)]).stdout
    with file.open("a") as handle:  # the file grew: only the new line is imported
        handle.write(json.dumps(STAGE_A) + "\n")
    grown = cli.invoke(app, ["events", "import", str(file)])
    assert "imported 1, already present 2" in grown.stdout
    assert _head(db_url) == 3


def test_a_lines_own_event_id_is_its_identity(cli: CliRunner, tmp_path: Path, db_url: str) -> None:
    file = _jsonl(tmp_path / "ids.jsonl", {**STAGE, "eventId": "evt-1"}, {**STAGE_A, "eventId": "evt-1"})
    result = cli.invoke(app, ["events", "import", str(file)])
    assert "imported 1, already present 1" in result.stdout  # same id: the same event
    db = open_database(db_url)
    try:
        [row] = EventStore(db, registry()).read_all()
    finally:
        db.dispose()
    assert row.event_id == "evt-1" and json.loads(row.payload)["jobId"] == "job-b"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ({**STAGE, "payload": {**STAGE["payload"], "jobId": "j" * 300_000}}, "payload_too_large"),  # type: ignore[dict-item]
        ({**STAGE, "occurredAt": "9999-12-31T23:59:59-01:00"}, "occurredAt is not an instant"),
        (
            '{"eventType": "StageStarted", "payload": ' + "[" * 1000 + "]" * 1000 + "}",
            "not a reference envelope",
        ),
        ({**STAGE, "tenantId": "../etc"}, "safe ids"),
        ({**STAGE, "metadata": {"attempt": "two"}}, "not a reference envelope"),
        ({**STAGE, "eventId": "e" * 100}, "eventId is longer than 64 characters"),  # found by the fuzzer
    ],
    ids=[
        "payload-too-large",
        "occurred-at-overflow",
        "nested-1000-deep",
        "unsafe-tenant",
        "bad-metadata",
        "long-event-id",
    ],
)
def test_each_bad_line_is_a_typed_rejection_with_exit_2_and_nothing_written(
    cli: CliRunner, tmp_path: Path, db_url: str, line: object, reason: str
) -> None:
    file = _jsonl(tmp_path / "bad.jsonl", STARTED, line)
    result = cli.invoke(app, ["events", "import", str(file)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback
    assert "line 2" in result.stderr and reason in result.stderr
    assert _head(db_url) == 0


def test_run_folds_and_stops_gracefully_on_sigterm(db_url: str, tmp_path: Path) -> None:
    file = _jsonl(tmp_path / "events.jsonl", STARTED, STAGE)
    env = {**os.environ, "JOBCTRL_DATABASE_URL": db_url, **worker_bytecode_env(shared_worker_pycache())}
    jobctrl = str(Path(sys.executable).with_name("jobctrl"))
    subprocess.run([jobctrl, "events", "import", str(file)], env=env, check=True, capture_output=True)
    child = subprocess.Popen(
        [jobctrl, "projections", "run", "--poll-interval", "0.1"], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status = subprocess.run(
                [jobctrl, "projections", "status"], env=env, capture_output=True, text=True, check=True
            )
            if "│    2 │         2 │   0 │" in status.stdout:
                break
            time.sleep(0.3)
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0
    assert "stopped after 2 events" in stderr


def test_rebuild_status_and_dump(cli: CliRunner, tmp_path: Path) -> None:
    file = _jsonl(tmp_path / "events.jsonl", STARTED, STAGE, STAGE_A)
    assert cli.invoke(app, ["events", "import", str(file)]).exit_code == 0
    rebuilt = cli.invoke(app, ["projections", "rebuild", "--batch-size", "2"])
    assert rebuilt.exit_code == 0, rebuilt.output
    status = cli.invoke(app, ["projections", "status"])
    assert status.exit_code == 0 and "job_stage_states" in status.stdout
    dumped = cli.invoke(app, ["projections", "dump", "job_stage_states", "--format", "json"])
    rows = json.loads(dumped.stdout)
    assert [r["jobId"] for r in rows] == ["job-a", "job-b"]  # primary-key order, not log order
    assert rows[0]["startedAt"] == "2026-03-01T09:00:05.000Z" and rows[0]["maxAttempts"] == 5
    runs = json.loads(cli.invoke(app, ["projections", "dump", "workflow_run_projections"]).stdout)
    assert runs[0]["updatedAt"] == "2026-03-01T09:00:00.000Z"  # occurredAt normalised to UTC
    assert runs[0]["timeline"][0]["kind"] == "started"
    assert "legacyField" not in dumped.stdout + json.dumps(runs)


def test_unknown_projection_is_a_typed_error(cli: CliRunner) -> None:
    result = cli.invoke(app, ["projections", "rebuild", "--projection", "nope"])
    assert result.exit_code == 2 and "unknown_projection" in result.stderr
