"""Record a member's work plan: planned (steps + child workflow), not eligible, or failed."""

from __future__ import annotations

from collections.abc import Sequence

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
    execution = load_execution(store, ref, clock)
    changed = execution.plan(
        job_id, steps=list(steps), child_workflow_id=child_workflow_id, at=isoformat(clock.now())
    )
    save_execution(store, execution, clock)
    return changed


def mark_member_not_eligible(
    store: EventStore, ref: ExecutionRef, job_id: str, *, reason: str, clock: Clock
) -> bool:
    execution = load_execution(store, ref, clock)
    changed = execution.mark_not_eligible(job_id, reason=reason, at=isoformat(clock.now()))
    save_execution(store, execution, clock)
    return changed


def mark_member_plan_failed(
    store: EventStore, ref: ExecutionRef, job_id: str, *, reason: str, clock: Clock
) -> bool:
    execution = load_execution(store, ref, clock)
    changed = execution.mark_plan_failed(job_id, reason=reason, at=isoformat(clock.now()))
    save_execution(store, execution, clock)
    return changed
