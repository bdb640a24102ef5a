"""``jobctrl outcome``, ``jobctrl digest`` and ``jobctrl apply open`` over a real $JOBCTRL_HOME database."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from jobctrl.apply.domain.facts import ClaimPolicy
from jobctrl.apply.domain.job_application import JobApplication
from jobctrl.apply.domain.run_events import Answer, ManualCompletionPrepared
from jobctrl.apply.use_cases._common import jobs
from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.runtime.cli import app
from jobctrl.testing.apply_facts import ready_facts

FACTS = ready_facts("j1", "Globex", "Engineer", url="https://jobs.example/j1/apply")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path))
    monkeypatch.delenv("JOBCTRL_DATABASE_URL", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return tmp_path


def _store() -> EventStore:
    store = EventStore(open_database(), registry())
    store.create_schema()
    return store


def test_outcome_and_digest_ack_are_events(home: Path) -> None:
    runner = CliRunner()
    recorded = runner.invoke(app, ["outcome", "j1", "interview", "--note", "Tuesday"])
    assert recorded.exit_code == 0, recorded.output
    assert "interview recorded" in recorded.output
    refused = runner.invoke(app, ["outcome", "j1", "hired"])
    assert refused.exit_code == 2
    digest = runner.invoke(app, ["digest", "--ack"])
    assert digest.exit_code == 0, digest.output
    assert "follow-ups due" in digest.output and "acknowledged at" in digest.output
    store = _store()
    types = [e.event_type for e in store.read_all(limit=100)]
    store.db.dispose()
    assert types == ["ApplicationOutcomeRecorded", "DigestReviewed"]


def test_apply_open_without_a_screen_prints_the_handoff(home: Path) -> None:
    store = _store()
    repo = jobs(store, None)
    app_ = repo.load("j1")
    assert app_ is None
    application = JobApplication("j1")
    application.start_run(
        run_id="r1", worker_id="w", model="m", dry_run=False, started_at="2026-03-01T09:00:00Z", facts=FACTS,
        policy=ClaimPolicy(approval_required=False), batch=False,
    )  # fmt: skip
    application.hand_off(
        "r1",
        ManualCompletionPrepared(
            application_url=FACTS.application_url or "",
            answers=[Answer(field="email", value="ada@example.org")],
            resume_pdf_path="/tmp/resume.pdf",
        ),
    )  # fmt: skip
    application.block("r1", "trusted_final_submit_required", blocked_at="2026-03-01T09:01:00Z")
    repo.save(application)
    store.db.dispose()
    runner = CliRunner()
    shown = runner.invoke(app, ["apply", "open", "j1"])
    assert shown.exit_code == 0, shown.output
    assert "Open: https://jobs.example/j1/apply" in shown.output and "email: ada@example.org" in shown.output
    assert "jobctrl outcome j1 applied" in shown.output
    missing = runner.invoke(app, ["apply", "open", "j2"])
    assert missing.exit_code == 1
