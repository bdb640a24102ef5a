"""Record a verified change of a posting's active state (closed, expired, removed, ...)."""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.enrichment.domain.aggregate import PostingEnrichment
from jobctrl.enrichment.events import ActiveState
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import bounded_code


@dataclass(frozen=True)
class ChangeActiveState:
    job_id: str
    active_state: ActiveState
    verification_method: str


def change_active_state(command: ChangeActiveState, *, store: EventStore, clock: Clock) -> bool:
    """Return True when the state changed (a repeated report of the same state records nothing)."""
    repo = AggregateRepository.for_class(store, PostingEnrichment, clock=clock)
    enrichment = repo.load(command.job_id) or PostingEnrichment(command.job_id)
    method = bounded_code(command.verification_method, fallback="unspecified")
    if not enrichment.change_active_state(command.active_state, method, clock.now()):
        return False
    repo.save(enrichment)
    return True
