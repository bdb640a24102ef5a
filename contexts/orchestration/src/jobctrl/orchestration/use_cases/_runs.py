"""Load-decide-save for the lifecycle aggregates, retried on a concurrent writer.

Each save carries the version it loaded (compare-and-swap in the write transaction): a writer that
raced us makes the save conflict, never overwrite; we reload and decide again from the new state.
A worker's step settling its stage row (complete, fail) goes through ``settle_step``: one clock
reading and the owner as fence on an owned stage only (ADR 0029).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from jobctrl.kernel.aggregate import Aggregate, AggregateRepository
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import ConcurrencyConflict, EventStore
from jobctrl.orchestration.domain.stages import limits
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.domain.workflow_run import WorkflowRun, run_key
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache, change_job_stages

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


def settle_step(
    store: EventStore, job_id: str, stage: Stage, owner: StageOwner,
    settle: Callable[[JobStages, str, StageOwner | None], None],
    *, clock: Clock | None, tenant_id: str, kept: StagesCache | None,
) -> None:  # fmt: skip
    """Settle a worker's step on one job's stage: ``settle(stages, at, fence)`` runs the transition,
    ``fence`` being the owner on an owned stage (a stale owner is refused) and None on the others."""
    at = now_iso(clock)
    fence = owner if stage in limits.OWNED_STAGES else None
    change_job_stages(
        store, job_id, lambda stages: settle(stages, at, fence),
        owner=owner, clock=clock, tenant_id=tenant_id, kept=kept,
    )  # fmt: skip
