"""Snoozing an application's follow-up through ``POST /v1/jobs/{id}/follow-up/snooze`` and
``jobctrl apply snooze``: not due until the snooze date, folded and rebuilt identically; refusals are
typed and write nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from jobctrl.apply.use_cases.record_outcome import record_outcome
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.store import Database
from jobctrl.projections.digest import table_digests
from jobctrl.projections.rebuild import rebuild
from jobctrl.runtime.cli import app as cli
from jobctrl.testing.runtime.api_seed import discover_job

from .api_world import NOW, ApiWorld, api_world

URL = "/v1/jobs/{}/follow-up/snooze"


@pytest.fixture
def world(db_url: str, database: Database) -> Iterator[ApiWorld]:
    yield from api_world(db_url, database)


def _applied(world: ApiWorld, job: str, days_ago: int) -> None:
    discover_job(world.store, job, employer="Globex")
    at = isoformat(NOW - timedelta(days=days_ago))
    record_outcome(world.store, job_id=job, outcome="applied", occurred_at=at, clock=world.clock)
    world.project()


def _due(world: ApiWorld) -> list[str]:
    world.project()
    return [i["jobId"] for i in world.client.get("/v1/follow-ups/due").json()["items"]]


@pytest.mark.both_databases
def test_a_snoozed_follow_up_is_not_due_until_its_date(world: ApiWorld) -> None:
    _applied(world, "j1", days_ago=10)  # due 3 days ago with the default 7 days
    _applied(world, "j2", days_ago=10)
    discover_job(world.store, "j3")  # never applied: nothing to snooze
    world.project()
    assert _due(world) == ["j1", "j2"]
    head = world.head()
    for job, body, status in (
        ("nope", {"until": isoformat(NOW + timedelta(days=3))}, 404),
        ("j3", {"until": isoformat(NOW + timedelta(days=3))}, 409),
        ("j1", {"until": isoformat(NOW - timedelta(days=1))}, 422),  # in the past
        ("j1", {"until": isoformat(NOW + timedelta(days=400))}, 422),  # too far
        ("j1", {"until": "2026-03-05T09:00:00"}, 422),  # no time zone
        ("j1", {"until": "soon"}, 422),
        ("j1", {}, 422),
    ):
        refused = world.client.post(URL.format(job), json=body)
        assert refused.status_code == status, (job, body, refused.text)
        assert set(refused.json()) == {"error"}
    assert world.head() == head

    until = NOW + timedelta(days=3)
    snoozed = world.client.post(URL.format("j1"), json={"until": until.isoformat()})
    assert snoozed.status_code == 200, snoozed.text
    assert snoozed.json() == {"jobId": "j1", "snoozedUntil": isoformat(until)}
    assert _due(world) == ["j2"]  # j1 is not due until its date
    pipeline = {i["jobId"]: i for i in world.client.get("/v1/applications/pipeline").json()["items"]}
    assert pipeline["j1"]["followUpDueAt"] == isoformat(until)
    world.clock.advance(timedelta(days=3, seconds=1))
    assert _due(world) == ["j1", "j2"]  # and due again once it passed

    record_outcome(world.store, job_id="j2", outcome="interview", clock=world.clock)
    head = world.head()
    settled = world.client.post(
        URL.format("j2"), json={"until": isoformat(world.clock.now() + timedelta(days=2))}
    )
    assert settled.status_code == 409 and settled.json()["error"]["code"] == "follow_up_not_pending"
    assert world.head() == head

    world.project()
    incremental = table_digests(world.db)
    rebuild(world.db, world.store.registry, batch_size=2)
    assert table_digests(world.db) == incremental


def test_jobctrl_apply_snooze(world: ApiWorld, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    _applied(world, "j1", days_ago=10)
    runner = CliRunner()
    done = runner.invoke(cli, ["apply", "snooze", "j1", "--days", "5"])
    assert done.exit_code == 0, done.output
    assert "follow-up snoozed until" in done.output
    head = world.head()
    assert runner.invoke(cli, ["apply", "snooze", "j1", "--days", "0"]).exit_code == 2
    refused = runner.invoke(cli, ["apply", "snooze", "nope", "--days", "5"])
    assert refused.exit_code == 1 and "job_not_found" in refused.output
    assert world.head() == head
    assert _due(world) == []
