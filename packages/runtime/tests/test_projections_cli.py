"""``jobctrl events import`` and ``jobctrl projections rebuild|status|dump`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jobctrl.runtime.cli import app

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


def test_import_reports_imported_rejected_and_dropped_keys(cli: CliRunner, tmp_path: Path) -> None:
    file = _jsonl(
        tmp_path / "events.jsonl",
        STARTED,
        "{not json",
        {**STAGE, "eventType": "NoSuchEvent"},
        {**STAGE, "payload": {"jobId": "job-c", "stage": "sleep", "attemptNumber": 1, "startedAt": "x"}},
        STAGE,
    )
    result = cli.invoke(app, ["events", "import", str(file)])
    assert result.exit_code == 1
    assert "imported 2, already present 0, rejected 3, unknown keys dropped 2" in result.stdout
    assert "line 2" in result.stderr and "line 3" in result.stderr and "line 4" in result.stderr
    again = cli.invoke(app, ["events", "import", str(file)])
    assert "imported 0, already present 2" in again.stdout


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
