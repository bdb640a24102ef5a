"""Load-decide-save for the lifecycle aggregates, retried on a concurrent writer.

Each save carries the version it loaded (compare-and-swap in the write transaction): a writer that
raced us makes the save conflict, never overwrite; we reload and decide again from the new state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from jobctrl.kernel.aggregate import Aggregate, AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import ConcurrencyConflict, EventStore
from jobctrl.orchestration.domain.workflow_run import WorkflowRun, run_key

A = TypeVar("A", bound=Aggregate)
ATTEMPTS = 5


def decide_and_save(
    store: EventStore,
    cls: type[A],
    load: Callable[[AggregateRepository[A]], A],
    decide: Callable[[A], bool],
    *,
    clock: Clock,
    tenant_id: str,
    workflow_id: str,
    run_id: str,
) -> bool:
    """True when ``decide`` recorded something and it was appended."""
    repo = AggregateRepository.for_class(store, cls, clock=clock, tenant_id=tenant_id)
    for attempt in range(ATTEMPTS):
        aggregate = load(repo)
        if not decide(aggregate):
            return False
        try:
            repo.save(aggregate, workflow_id=workflow_id, run_id=run_id)
        except ConcurrencyConflict:
            if attempt == ATTEMPTS - 1:
                raise
            continue
        return True
    return False


def load_run(
    store: EventStore, workflow_id: str, run_id: str, *, clock: Clock | None = None
) -> WorkflowRun | None:
    """One run's lifecycle as recorded (None: nothing recorded for this exact run)."""
    return AggregateRepository.for_class(store, WorkflowRun, clock=clock).load(run_key(workflow_id, run_id))
