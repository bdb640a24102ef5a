"""Save scoring-policy settings; a real change is a new version and makes older scores stale."""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.scoring.domain.aggregates import ScoringPolicyHistory
from jobctrl.scoring.domain.policy import ScoringPolicy
from jobctrl.scoring.use_cases.score_job import DEFAULT_POLICY_ID


@dataclass(frozen=True)
class UpdateScoringPolicy:
    criteria: str
    strong_band_min: int = 8
    good_band_min: int = 6
    stretch_band_min: int = 4
    policy_id: str = DEFAULT_POLICY_ID


def update_scoring_policy(command: UpdateScoringPolicy, *, store: EventStore, clock: Clock) -> ScoringPolicy:
    """Return the current policy after the save (unchanged settings record nothing)."""
    proposed = ScoringPolicy(
        criteria=command.criteria,
        strong_band_min=command.strong_band_min,
        good_band_min=command.good_band_min,
        stretch_band_min=command.stretch_band_min,
    )
    repo = AggregateRepository.for_class(store, ScoringPolicyHistory, clock=clock)
    history = repo.load(command.policy_id) or ScoringPolicyHistory(command.policy_id)
    if history.update(proposed, clock.now()):
        repo.save(history)
    return history.current
