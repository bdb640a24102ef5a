"""Use cases: save the candidate profile; drain its continuation outbox; close a continuation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.orchestration.domain.profile.aggregate import CandidateProfile, Dispatch, SaveOutcome
from jobctrl.orchestration.events import ContinuationOutcome

_CLOSE_ATTEMPTS = 5


class ProfileService:
    def __init__(
        self, store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
    ) -> None:
        self.clock = clock or SystemClock()
        self.tenant_id = tenant_id
        self.repo = AggregateRepository.for_class(
            store, CandidateProfile, clock=self.clock, tenant_id=tenant_id
        )

    def load(self) -> CandidateProfile:
        return self.repo.load(self.tenant_id) or CandidateProfile(self.tenant_id)

    def save_profile(self, content: Mapping[str, Any]) -> SaveOutcome:
        """The change and its outbox fact are one append (one transaction)."""
        profile = self.load()
        outcome = profile.save(content, at=isoformat(self.clock.now()))
        if profile.pending_events:
            self.repo.save(profile)
        return outcome

    def drain_outbox(self, closed: Callable[[str], bool]) -> list[Dispatch]:
        """Record coalescing and the dispatch intent durably, then tell the caller what to start or
        re-attach to (a START's dispatch intent is committed before this returns)."""
        profile = self.load()
        plan = profile.drain(at=isoformat(self.clock.now()), closed=closed)
        if profile.pending_events:
            self.repo.save(profile)
        return plan

    def close_continuation(
        self,
        workflow_id: str,
        outcome: ContinuationOutcome,
        *,
        at: str | None = None,
        recorded_by: Literal["workflow", "outbox_drain"],
    ) -> bool:
        """Record the terminal fact of the continuation ``workflow_id`` (once; ``False`` if there was
        nothing to close).  A save or a drain appending meanwhile makes the append conflict: the
        decision is taken again on the reloaded profile (the workflow and a drain may race to close)."""
        at = at or isoformat(self.clock.now())
        for attempt in range(_CLOSE_ATTEMPTS):
            profile = self.load()
            closed = profile.close(workflow_id, outcome, at=at, recorded_by=recorded_by)
            if not profile.pending_events:
                return closed
            try:
                self.repo.save(profile)
            except ConcurrencyConflict:
                if attempt + 1 == _CLOSE_ATTEMPTS:
                    raise
                continue
            return closed
        raise AssertionError("unreachable")
