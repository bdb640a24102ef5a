"""Record a member's work plan: planned (steps + child workflow), not eligible, or failed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jobctrl.discovery.domain.execution import DiscoveryExecution
from jobctrl.discovery.use_cases.link_execution_members import load_execution, save_execution
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore


def plan_member(
    store: EventStore,
    ref: ExecutionRef,
    job_id: str,
    *,
    steps: Sequence[str],
    child_workflow_id: str,
    clock: Clock,
) -> bool:
    return _change(
        store,
        ref,
        clock,
        lambda e, at: e.plan(job_id, steps=list(steps), child_workflow_id=child_workflow_id, at=at),
    )


def mark_member_not_eligible(
    store: EventStore, ref: ExecutionRef, job_id: str, *, reason: str, clock: Clock
) -> bool:
    return _change(store, ref, clock, lambda e, at: e.mark_not_eligible(job_id, reason=reason, at=at))


def mark_member_plan_failed(
    store: EventStore, ref: ExecutionRef, job_id: str, *, reason: str, clock: Clock
) -> bool:
    return _change(store, ref, clock, lambda e, at: e.mark_plan_failed(job_id, reason=reason, at=at))


def _change(
    store: EventStore, ref: ExecutionRef, clock: Clock, change: Callable[[DiscoveryExecution, str], bool]
) -> bool:
    """Load the execution, make one change to a member at the clock's time, save it; True when it changed."""
    execution = load_execution(store, ref, clock)
    changed = change(execution, isoformat(clock.now()))
    save_execution(store, execution, clock)
    return changed
