"""Fan a cohort's preparation targets out to one ``JobPreparationWorkflow`` each (ADR 0261).

Orchestration decides: each target's ``WorkPlan`` (steps and child id ``prep-{idempotencyKey}``),
the child's input, and the order -- the children are started first, a batch of ``BATCH`` at a time,
then the plans are recorded on discovery's execution (``RecordWorkPlans``, which also marks the
unplanned members of the terminal cohort not eligible and closes the membership).  A start or a
record that raises fails the call; its retry plans the same children, re-attaches to those already
started and finds the same plans recorded, so nothing is done twice.  The Temporal client and the
store are behind the two ports; the runtime's activity only wires them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from jobctrl.activity_contracts.contracts import Cohort, FanoutResult
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.orchestration.domain.preparation_plan import PreparationTarget, WorkPlan, plan_preparation
from jobctrl.orchestration.ports import RecordWorkPlans, StartPreparation
from jobctrl.orchestration.workflows.preparation import JobPreparationInput

#: starts in flight at once (each is one round trip to the server)
BATCH = 25


def preparation_input(
    plan: WorkPlan, execution: ExecutionRef, *, cohort: str, heartbeat_timeout_s: float
) -> JobPreparationInput:
    return JobPreparationInput(
        tenant=execution.tenant_id,
        job_id=plan.job_id,
        idempotency_key=plan.idempotency_key,
        steps=list(plan.steps),
        target_version=plan.target_version,
        execution=ExecutionRef(execution.tenant_id, execution.workflow_id, execution.temporal_run_id),
        cohort=cohort,
        heartbeat_timeout_s=heartbeat_timeout_s,
    )


async def fan_out_preparation(
    targets: Sequence[PreparationTarget],
    *,
    execution: ExecutionRef,
    cohort: Cohort,
    start: StartPreparation,
    record: RecordWorkPlans,
    heartbeat_timeout_s: float = 0.0,
    progress: Callable[[int], None] = lambda done: None,
) -> FanoutResult:
    """Start every target's child (``progress`` after each batch, with the starts done so far), then
    record the plans; ``not_eligible`` counts the members the record marked so."""
    plans = [plan_preparation(execution.tenant_id, target) for target in targets]
    inputs = [
        preparation_input(p, execution, cohort=cohort, heartbeat_timeout_s=heartbeat_timeout_s) for p in plans
    ]
    started = already = 0
    for first in range(0, len(plans), BATCH):
        batch = range(first, min(first + BATCH, len(plans)))
        outcomes = await asyncio.gather(*(start(plans[i].child_workflow_id, inputs[i]) for i in batch))
        started += sum(outcomes)
        already += len(outcomes) - sum(outcomes)
        progress(first + len(outcomes))
    not_eligible = await asyncio.to_thread(record, execution, cohort, plans)
    return FanoutResult(started_workflows=started, not_eligible=not_eligible, already_prepared=already)
