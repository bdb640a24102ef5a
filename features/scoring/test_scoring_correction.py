"""Steps for score_correction.feature."""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.use_cases.correct_score import CorrectScore, correct_score

from .conftest import attempt

scenarios("scoring/score_correction.feature")


@given(parsers.parse('the score of job "{job_id}" was corrected to {value:d} because "{reason}"'))
@when(parsers.parse('the score of job "{job_id}" is corrected to {value:d} because "{reason}"'))
def correct(
    store: EventStore, clock: FixedClock, ctx: dict[str, Any], job_id: str, value: int, reason: str
) -> None:
    ctx["head_before"] = store.head_position()
    attempt(ctx, lambda: correct_score(CorrectScore(job_id, value, reason), store=store, clock=clock))


@then(parsers.parse('the current score of job "{job_id}" is {value:d}'))
def current_score(store: EventStore, ctx: dict[str, Any], job_id: str, value: int) -> None:
    assert ctx["result"].fit_score == value and ctx["result"].reused
    assert AggregateRepository.for_class(store, JobScore).get(job_id).fit_score == value
