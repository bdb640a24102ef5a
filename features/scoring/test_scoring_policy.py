"""Steps for scoring_policy.feature."""

from __future__ import annotations

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.events import JobScored, ScoreRescoreRequested
from jobctrl.scoring.use_cases.request_rescores import request_rescores
from jobctrl.scoring.use_cases.update_scoring_policy import UpdateScoringPolicy, update_scoring_policy

from .conftest import World, scored_events

pytestmark = pytest.mark.both_databases
scenarios("scoring/scoring_policy.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


@given(parsers.parse('the scoring policy criteria were saved as "{criteria}"'))
@when(parsers.parse('the scoring policy criteria are saved as "{criteria}"'))
def save_criteria(store: EventStore, clock: FixedClock, criteria: str) -> None:
    update_scoring_policy(UpdateScoringPolicy(criteria=criteria), store=store, clock=clock)


@when(parsers.parse("the scoring policy is saved with a strong band from {minimum:d}"))
def save_band(store: EventStore, clock: FixedClock, world: World, minimum: int) -> None:
    world.head_before = store.head_position()
    command = UpdateScoringPolicy(criteria="", strong_band_min=minimum)
    world.attempt(lambda: update_scoring_policy(command, store=store, clock=clock))


@given("rescores were requested")
@when("rescores are requested")
def rescores(store: EventStore, clock: FixedClock) -> None:
    request_rescores(store=store, clock=clock)


@then(parsers.parse('job "{job_id}" is stale with a rescore from policy {old:d} to policy {new:d}'))
def stale(store: EventStore, job_id: str, old: int, new: int) -> None:
    requests = [e for e in scored_events(store, job_id) if isinstance(e, ScoreRescoreRequested)]
    assert [(r.old_policy_version, r.new_policy_version, r.next_action) for r in requests] == [
        (old, new, "rescore")
    ]
    assert AggregateRepository.for_class(store, JobScore).get(job_id).is_stale


@then(parsers.parse('job "{job_id}" is current under policy {policy:d} at score version {version:d}'))
def current(store: EventStore, job_id: str, policy: int, version: int) -> None:
    score = AggregateRepository.for_class(store, JobScore).get(job_id)
    assert not score.is_stale
    assert (score.policy_version, score.score_version) == (policy, version)


@then(parsers.parse('job "{job_id}" is still stale'))
def still_stale(store: EventStore, job_id: str) -> None:
    assert AggregateRepository.for_class(store, JobScore).get(job_id).is_stale


@then(parsers.parse('the latest fit band of job "{job_id}" is "{band}"'))
def band(store: EventStore, job_id: str, band: str) -> None:
    scored = [e for e in scored_events(store, job_id) if isinstance(e, JobScored)]
    assert scored[-1].fit_score < 10 and scored[-1].fit_band == band
