"""Close an execution's membership; later links are refused.

``close_execution_membership``: the terminal preparation fan-out's close (no reason).
``close_interrupted_membership``: the Discover run ended before that fan-out -- failed, canceled,
terminated or timed out (ADR 0083) -- so its membership is closed with ``interrupted_<why>``.  Both are
idempotent: the first close stands and a second records nothing.  The interrupted close is written
beside late writers of the same execution (a zombie family linking, a fan-out still planning), so a
save that loses the race reloads and looks again.
"""

from __future__ import annotations

from jobctrl.discovery.domain.execution import interrupted_reason
from jobctrl.discovery.use_cases.link_execution_members import load_execution, save_execution
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict

ATTEMPTS = 8


def close_execution_membership(store: EventStore, ref: ExecutionRef, *, clock: Clock) -> bool:
    execution = load_execution(store, ref, clock)
    changed = execution.close_membership(at=isoformat(clock.now()))
    save_execution(store, execution, clock)
    return changed


def close_interrupted_membership(store: EventStore, ref: ExecutionRef, *, why: str, clock: Clock) -> bool:
    """True when this call closed the membership (reason ``interrupted_<why>``, under the ref's
    tenant).  A membership already closed -- by the fan-out, or by an earlier interruption -- is left
    as it is; an execution that linked nobody is closed with 0 members."""
    for attempt in range(ATTEMPTS):
        execution = load_execution(store, ref, clock)
        if not execution.close_membership(at=isoformat(clock.now()), reason_code=interrupted_reason(why)):
            return False
        try:
            save_execution(store, execution, clock)
        except ConcurrencyConflict:
            if attempt == ATTEMPTS - 1:
                raise
            continue  # another writer appended to the execution: look again
        return True
    return False  # pragma: no cover - the loop returns or raises


class InterruptedMembershipCloser:
    """``close_interrupted_membership`` by plain ids: what orchestration's discovery-run interrupt and
    the describe reconciler call after the run's own terminal fact (orchestration's
    ``CloseInterruptedMembership`` port; ADR 0180)."""

    def __init__(self, store: EventStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def __call__(self, tenant_id: str, workflow_id: str, run_id: str, why: str) -> None:
        ref = ExecutionRef(tenant_id, workflow_id, run_id)
        close_interrupted_membership(self.store, ref, why=why, clock=self.clock)
