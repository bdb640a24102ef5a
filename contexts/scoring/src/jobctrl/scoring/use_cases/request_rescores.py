"""After a policy change, mark every score made under an older policy stale (ScoreRescoreRequested)."""

from __future__ import annotations

from collections.abc import Iterable

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.scoring.domain.aggregates import JobScore
from jobctrl.scoring.events import JobScored
from jobctrl.scoring.use_cases.score_job import DEFAULT_POLICY_ID, current_policy

PAGE = 1000


def scored_job_ids(store: EventStore) -> list[str]:
    """Every job with a JobScored in the log, in first-scored order (a read model can replace this)."""
    seen: dict[str, None] = {}
    after = 0
    while batch := store.read_all(after=after, limit=PAGE, types=[JobScored.event_type]):
        for row in batch:
            event = store.registry.decode(row)
            assert isinstance(event, JobScored)
            seen.setdefault(event.job_id, None)
        after = batch[-1].position
    return list(seen)


def request_rescores(
    *,
    store: EventStore,
    clock: Clock,
    job_ids: Iterable[str] | None = None,
    policy_id: str = DEFAULT_POLICY_ID,
) -> list[str]:
    """Return the job ids newly marked stale; all marks commit together or not at all."""
    policy = current_policy(store, policy_id, clock)
    repo = AggregateRepository.for_class(store, JobScore, clock=clock)
    stale: list[JobScore] = []
    for job_id in job_ids if job_ids is not None else scored_job_ids(store):
        score = repo.load(job_id)
        if score is not None and score.request_rescore(policy.version):
            stale.append(score)
    if stale:
        repo.save(*stale)
    return [score.id for score in stale]
