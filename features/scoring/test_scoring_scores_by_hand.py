"""Steps of features/scoring/scores_by_hand.feature: the real CLI (Typer's runner, in process, on the
configured database) and the real API (in-process client) over the scoring use cases; scores are made
by the real ``score_job`` with the offline provider (shared steps: conftest.py)."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, scenarios, then, when
from typer.testing import CliRunner

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.cli import app
from jobctrl.scoring import JobScore, UpdateScoringPolicy, update_scoring_policy

from .conftest import World

scenarios("scoring/scores_by_hand.feature")


@pytest.fixture
def cli_env(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)


@pytest.fixture
def api(db_url: str, clock: FixedClock) -> Iterator[TestClient]:
    with TestClient(
        create_app(ApiConfig(database_url=db_url, clock=clock)), raise_server_exceptions=False
    ) as c:
        yield c


def _ids(text: str) -> list[str]:
    return [i.strip() for i in text.split(",")]


@given(parsers.parse('the scoring policy now weighs "{criteria}"'))
def policy_changed(store: EventStore, clock: FixedClock, criteria: str) -> None:
    assert update_scoring_policy(UpdateScoringPolicy(criteria=criteria), store=store, clock=clock).version > 0


@given(parsers.parse('the user ran "{line}"'))
@when(parsers.parse('the user runs "{line}"'))
def runs(cli_env: None, store: EventStore, world: World, line: str) -> None:
    args = shlex.split(line)
    assert args[0] == "jobctrl"
    world.head_before = store.head_position()
    world.cli = CliRunner().invoke(app, args[1:])


@then(parsers.parse('the command succeeds saying "{text}"'))
def succeeds(world: World, text: str) -> None:
    result = world.cli
    assert result is not None
    assert result.exit_code == 0, result.output
    assert text in result.stdout


@then(parsers.parse('the command said "{text}"'))
def said(world: World, text: str) -> None:
    assert world.cli is not None and text in world.cli.stdout


@then(parsers.parse('the command exits 2 naming "{code}" and nothing is written'))
def exits_2(store: EventStore, world: World, code: str) -> None:
    result = world.cli
    assert result is not None
    assert result.exit_code == 2, result.output
    assert code in result.stderr and "nothing was written" in result.stderr
    assert store.head_position() == world.head_before


@when(parsers.parse('the user posts a correction of job "{job_id}" to {value:d} because "{reason}"'))
def post_correction(api: TestClient, world: World, job_id: str, value: int, reason: str) -> None:
    body = {"correctedScore": value, "reason": reason}
    world.response = api.post(f"/v1/jobs/{job_id}/score/corrections", json=body)


@when(parsers.parse('the user posts a rescore request for "{job_ids}"'))
def post_rescore(api: TestClient, world: World, job_ids: str) -> None:
    world.response = api.post("/v1/scores/rescore-requests", json={"jobIds": _ids(job_ids)})


@then(parsers.parse("the API answers 201 with score version {version:d}"))
def answered_201(world: World, version: int) -> None:
    response = world.response
    assert response is not None
    assert response.status_code == 201, response.text
    assert response.json()["scoreVersion"] == version


@then(parsers.parse('the API answers 200 requesting "{job_ids}"'))
def answered_200(world: World, job_ids: str) -> None:
    response = world.response
    assert response is not None
    assert response.status_code == 200, response.text
    assert response.json() == {"requested": _ids(job_ids)}


@then(parsers.parse('the scores of "{job_ids}" are stale'))
def are_stale(store: EventStore, job_ids: str) -> None:
    repo = AggregateRepository.for_class(store, JobScore)
    assert all(repo.get(job_id).is_stale for job_id in _ids(job_ids))


@then(parsers.parse('the scores of "{job_ids}" are current'))
def are_current(store: EventStore, job_ids: str) -> None:
    repo = AggregateRepository.for_class(store, JobScore)
    assert not any(repo.get(job_id).is_stale for job_id in _ids(job_ids))
