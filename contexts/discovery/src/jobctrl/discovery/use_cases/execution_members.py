"""The members of a Discover execution, optionally of one cohort, in link order (ADR 0263)."""

from __future__ import annotations

from jobctrl.discovery.use_cases.link_execution_members import load_execution
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore


def execution_members(
    store: EventStore, ref: ExecutionRef, cohort: str | None = None, *, clock: Clock
) -> list[str]:
    execution = load_execution(store, ref, clock)
    return [
        job_id for job_id, member in execution.members.items() if cohort is None or member.cohort == cohort
    ]
