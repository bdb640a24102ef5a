"""Correct a job's score by hand: a new score version, the original kept in the log."""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import bound_text
from jobctrl.scoring.domain.aggregates import JobScore, ScoreNotFoundError


@dataclass(frozen=True)
class CorrectScore:
    job_id: str
    corrected_score: int
    reason: str


def correct_score(command: CorrectScore, *, store: EventStore, clock: Clock) -> int:
    """Return the new score version."""
    repo = AggregateRepository.for_class(store, JobScore, clock=clock)
    score = repo.load(command.job_id)
    if score is None:
        raise ScoreNotFoundError(f"job {command.job_id} has no score to correct")
    score.correct(command.corrected_score, bound_text(command.reason, 500), clock.now())
    repo.save(score)
    return score.score_version
