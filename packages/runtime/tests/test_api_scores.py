"""Score corrections and rescore requests through the HTTP API: the scoring context's own use cases
behind thin routes, on SQLite and PostgreSQL; bad input is a typed 422 and writes nothing, and the
app-wide guard (JSON content type, Origin) stands in front of both."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm import NullSpendRecorder, OfflineProvider
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.scoring.adapters.offline_rules import register_offline_scoring
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.domain.profile import CandidateProfile, EvidenceItem, EvidenceKind
from jobctrl.scoring.events import ScoreCorrected, ScoreRescoreRequested
from jobctrl.scoring.use_cases.score_job import ScoreJob, score_job
from jobctrl.scoring.use_cases.update_scoring_policy import UpdateScoringPolicy, update_scoring_policy

from .api_world import NOW

POSTING = """Senior Backend Engineer

Requirements:
- 5+ years of Python experience
- Experience with PostgreSQL{extra}
"""
CANDIDATE = CandidateProfile(
    profile_version=1,
    total_years_experience=6,
    evidence=(
        EvidenceItem(id="skill-python", kind=EvidenceKind.SKILL, text="Python"),
        EvidenceItem(id="skill-postgres", kind=EvidenceKind.SKILL, text="PostgreSQL"),
        EvidenceItem(id="exp-1", kind=EvidenceKind.EXPERIENCE, text="Built Python services at Acme", years=6),
    ),
)


@dataclass
class World:
    client: TestClient
    store: EventStore

    def head(self) -> int:
        return self.store.head_position()

    def types_after(self, position: int) -> list[str]:
        return [e.event_type for e in self.store.read_all(after=position, limit=1000)]


@pytest.fixture
def world(db_url: str, database: Database) -> Iterator[World]:
    store, clock = EventStore(database, registry()), FixedClock(NOW)
    app = create_app(ApiConfig(database_url=db_url, clock=clock))
    with TestClient(app, raise_server_exceptions=False) as client:
        llm = OfflineProvider(NullSpendRecorder())
        register_offline_scoring(llm)
        for job_id, extra in (("j1", ""), ("j2", "\n- Experience with Kubernetes")):  # the real use case
            command = ScoreJob(job_id, POSTING.format(extra=extra), CANDIDATE)
            score_job(command, store=store, llm=llm, clock=clock)
        update_scoring_policy(UpdateScoringPolicy(criteria="remote first"), store=store, clock=clock)
        yield World(client, store)
    gc.collect()


@pytest.mark.both_databases
def test_a_correction_records_a_new_score_version_and_keeps_the_original(world: World) -> None:
    before = world.head()
    response = world.client.post(
        "/v1/jobs/j1/score/corrections", json={"correctedScore": 5, "reason": "no Go"}
    )
    assert response.status_code == 201, response.text
    assert response.json() == {"jobId": "j1", "scoreVersion": 2, "correctedScore": 5}
    assert world.types_after(before) == [ScoreCorrected.event_type]
    score = AggregateRepository.for_class(world.store, JobScore).load("j1")
    assert score is not None and score.fit_score == 5 and score.score_version == 2
    # Correcting to the score it already has is the domain's refusal: 422, nothing written.
    after = world.head()
    same = world.client.post("/v1/jobs/j1/score/corrections", json={"correctedScore": 5, "reason": "again"})
    assert same.status_code == 422 and same.json()["error"]["code"] == "invalid_score_correction"
    assert world.head() == after


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"correctedScore": 11, "reason": "too high"}, "invalid_request"),
        ({"correctedScore": 5}, "invalid_request"),
        ({"correctedScore": 5, "reason": "x", "extra": 1}, "invalid_request"),
        ({"correctedScore": 5, "reason": "   "}, "invalid_score_correction"),
    ],
)
def test_a_bad_correction_is_422_and_writes_nothing(world: World, body: dict[str, object], code: str) -> None:
    before = world.head()
    response = world.client.post("/v1/jobs/j1/score/corrections", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == code
    assert world.head() == before


def test_correcting_a_job_with_no_score_is_404_and_writes_nothing(world: World) -> None:
    before = world.head()
    response = world.client.post("/v1/jobs/nope/score/corrections", json={"correctedScore": 5, "reason": "r"})
    assert response.status_code == 404 and response.json()["error"]["code"] == "score_not_found"
    assert world.head() == before


@pytest.mark.both_databases
def test_rescore_requests_mark_older_policy_scores_stale_once(world: World) -> None:
    before = world.head()
    response = world.client.post("/v1/scores/rescore-requests", json={"jobIds": ["j1"]})
    assert response.status_code == 200, response.text
    assert response.json() == {"requested": ["j1"]}
    assert world.types_after(before) == [ScoreRescoreRequested.event_type]
    # Every scored job when none is named; j1 is stale already, so only j2 is new.
    assert world.client.post("/v1/scores/rescore-requests", json={}).json() == {"requested": ["j2"]}
    assert world.client.post("/v1/scores/rescore-requests", json={}).json() == {"requested": []}


@pytest.mark.parametrize("body", [{"jobIds": []}, {"jobIds": ["a/b"]}, {"jobIds": "j1"}, {"all": True}])
def test_a_bad_rescore_request_is_422_and_writes_nothing(world: World, body: dict[str, object]) -> None:
    before = world.head()
    response = world.client.post("/v1/scores/rescore-requests", json=body)
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
    assert world.head() == before


def test_both_routes_pass_the_app_wide_guard_and_are_in_the_openapi_document(world: World) -> None:
    before = world.head()
    for path, body in (
        ("/v1/jobs/j1/score/corrections", b'{"correctedScore": 5, "reason": "r"}'),
        ("/v1/scores/rescore-requests", b"{}"),
    ):
        plain = world.client.post(path, content=body, headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415, plain.text
        foreign = world.client.post(
            path,
            content=body,
            headers={"Content-Type": "application/json", "Origin": "http://attacker.example"},
        )
        assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "cross_origin_refused"
    assert world.head() == before
    paths = world.client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/v1/jobs/{job_id}/score/corrections"]
    assert "post" in paths["/v1/scores/rescore-requests"]
