"""Step 2 of the profile-outbox drain (ADR 0074, 0262): record the coalescing of never-started
intents and the dispatch intent of the newest one durably, then say what to start or re-attach to
(a START's dispatch intent is committed before this returns).  ``closed`` tells which continuation
workflows Temporal reports closed."""

from __future__ import annotations

from collections.abc import Callable

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.profile.aggregate import Dispatch
from jobctrl.orchestration.use_cases.load_profile import change_profile


def record_profile_dispatches(
    store: EventStore,
    closed: Callable[[str], bool],
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> list[Dispatch]:
    at = now_iso(clock)
    return change_profile(store, lambda p: p.drain(at=at, closed=closed), clock=clock, tenant_id=tenant_id)
