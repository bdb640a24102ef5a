"""Use cases: save the candidate profile; drain its continuation outbox."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.profile.aggregate import CandidateProfile, Dispatch, SaveOutcome


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
