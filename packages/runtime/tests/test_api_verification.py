"""Settling a ``needs_verification`` apply run through ``POST /v1/jobs/{id}/apply/verification`` and
``jobctrl apply verify``: recorded as an event, folded, final; "not submitted" lets a new live claim
proceed, "submitted" never does; bad input is a typed error that writes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from jobctrl.apply.domain.facts import ClaimPolicy, CurrentJobFacts
from jobctrl.apply.domain.job_application import JobApplication
from jobctrl.apply.domain.run_events import NeedsVerification
from jobctrl.apply.use_cases._common import jobs
from jobctrl.kernel.store import Database
from jobctrl.runtime.cli import app as cli
from jobctrl.testing.apply_facts import ready_facts
from jobctrl.testing.runtime.api_seed import discover_job

from .api_world import ApiWorld, api_world

POLICY = ClaimPolicy(approval_required=False)


def _facts(job: str) -> CurrentJobFacts:
    return ready_facts(job, "Globex", "Engineer", url=f"https://jobs.example/{job}/apply")


@pytest.fixture
def world(db_url: str, database: Database) -> Iterator[ApiWorld]:
    yield from api_world(db_url, database)


def _needs_verification(world: ApiWorld, job: str) -> None:
    discover_job(world.store, job, employer="Globex")
    application = JobApplication(job)
    application.start_run(
        run_id=f"{job}-r1", worker_id="w", model="m", dry_run=False, started_at="2026-03-01T09:00:00Z",
        facts=_facts(job), policy=POLICY, batch=False,
    )  # fmt: skip
    application.intend_submit(
        f"{job}-r1", tenant_id="local", material_version="1", intended_at="2026-03-01T09:01:00Z"
    )
    application.mark_needs_verification(f"{job}-r1", NeedsVerification(cause="intent_without_result"))
    jobs(world.store, world.clock).save(application)
    world.project()


def _claim_refusal(world: ApiWorld, job: str) -> str | None:
    refused = (
        jobs(world.store, world.clock).get(job).claim_refusal(_facts(job), POLICY, dry_run=False, batch=False)
    )
    return None if refused is None else refused.reason


def _stage(world: ApiWorld, job: str) -> str:
    world.project()
    items = world.client.get("/v1/applications/pipeline").json()["items"]
    return str(next(i["stage"] for i in items if i["jobId"] == job))


@pytest.mark.both_databases
def test_the_user_settles_needs_verification_once_and_only_not_submitted_allows_a_new_claim(
    world: ApiWorld,
) -> None:
    _needs_verification(world, "j1")
    _needs_verification(world, "j2")
    assert _claim_refusal(world, "j1") == "needs_verification"
    assert _stage(world, "j1") == "needs_verification"
    url = "/v1/jobs/{}/apply/verification"

    head = world.head()
    for job, body, status in (
        ("nope", {"submitted": False}, 404),
        ("j1", {"submitted": "maybe"}, 422),
        ("j1", {}, 422),
        ("j1", {"submitted": False, "extra": 1}, 422),
        ("j1", {"submitted": False, "runId": "j1-r9"}, 409),  # not a run awaiting verification
    ):
        refused = world.client.post(url.format(job), json=body)
        assert refused.status_code == status, (job, body, refused.text)
        assert set(refused.json()) == {"error"}
    assert world.head() == head

    not_sent = world.client.post(url.format("j1"), json={"submitted": False})
    assert not_sent.status_code == 200, not_sent.text
    assert not_sent.json() == {"jobId": "j1", "runId": "j1-r1", "submitted": False, "runStatus": "failed"}
    assert _claim_refusal(world, "j1") is None  # a new live claim may proceed
    assert _stage(world, "j1") == "preparing"  # no longer waiting for verification (not prepared here)

    sent = world.client.post(url.format("j2"), json={"submitted": True, "runId": "j2-r1"})
    assert sent.status_code == 200, sent.text
    assert sent.json()["runStatus"] == "succeeded"
    assert _claim_refusal(world, "j2") == "already_applied"  # never again
    assert _stage(world, "j2") == "applied"

    head = world.head()
    for job in ("j1", "j2"):  # a settlement is final
        again = world.client.post(url.format(job), json={"submitted": job == "j1"})
        assert again.status_code == 409 and again.json()["error"]["code"] == "no_run_needs_verification"
    assert world.head() == head
    types = [e.event_type for e in world.store.read_all(types=["ApplicationSubmitted", "ApplicationFailed"])]
    assert sorted(types) == ["ApplicationFailed", "ApplicationSubmitted"]


def test_jobctrl_apply_verify_settles_and_refuses_a_second_time(
    world: ApiWorld, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    _needs_verification(world, "j3")
    runner = CliRunner()
    settled = runner.invoke(cli, ["apply", "verify", "j3", "--not-submitted"])
    assert settled.exit_code == 0, settled.output
    assert "settled as not submitted (failed)" in settled.output
    head = world.head()
    again = runner.invoke(cli, ["apply", "verify", "j3", "--submitted"])
    assert again.exit_code == 1 and "no_run_needs_verification" in again.output
    missing = runner.invoke(cli, ["apply", "verify", "j3"])
    assert missing.exit_code == 2  # --submitted or --not-submitted is required
    assert world.head() == head
    assert _claim_refusal(world, "j3") is None
