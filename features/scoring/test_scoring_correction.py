"""Steps for score_correction.feature."""

from __future__ import annotations

from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.use_cases.correct_score import CorrectScore, correct_score
from jobctrl.scoring.use_cases.score_job import ScoreOutcome

from .conftest import World

scenarios("scoring/score_correction.feature")


@given(parsers.parse('the score of job "{job_id}" was corrected to {value:d} because "{reason}"'))
@when(parsers.parse('the score of job "{job_id}" is corrected to {value:d} because "{reason}"'))
def correct(store: EventStore, clock: FixedClock, world: World, job_id: str, value: int, reason: str) -> None:
    world.head_before = store.head_position()
    world.attempt(lambda: correct_score(CorrectScore(job_id, value, reason), store=store, clock=clock))


@then(parsers.parse('the current score of job "{job_id}" is {value:d}'))
def current_score(store: EventStore, world: World, job_id: str, value: int) -> None:
    assert isinstance(world.result, ScoreOutcome)
    assert world.result.fit_score == value and world.result.reused
    assert AggregateRepository.for_class(store, JobScore).get(job_id).fit_score == value
