"""Record the terminal fact of one profile continuation (ADR 0077), once: ``False`` when there was
nothing to close.  A save or a drain appending meanwhile makes the append conflict: the decision is
taken again on the reloaded profile (the workflow and a drain may race to close)."""

from __future__ import annotations

from typing import Literal

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.orchestration.events import ContinuationOutcome
from jobctrl.orchestration.use_cases.load_profile import change_profile

ATTEMPTS = 5


def close_profile_continuation(
    store: EventStore,
    workflow_id: str,
    outcome: ContinuationOutcome,
    *,
    recorded_by: Literal["workflow", "outbox_drain"],
    at: str | None = None,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> bool:
    when = at or now_iso(clock)
    for attempt in range(ATTEMPTS):
        try:
            return change_profile(
                store, lambda p: p.close(workflow_id, outcome, at=when, recorded_by=recorded_by),
                clock=clock, tenant_id=tenant_id,
            )  # fmt: skip
        except ConcurrencyConflict:
            if attempt + 1 == ATTEMPTS:
                raise
    raise AssertionError("unreachable")
