"""Record a preparation fan-out's work plans on the execution (ADR 0070, 0261).

Each planned member gets its plan (``planned``: steps + child workflow id); a target not linked yet
(a backlog job) is linked in the fan-out's cohort first, unless the membership is closed (a late
sweep: the membership is final).  The first plan stands (plans are immutable): a member found not
eligible earlier keeps that.  At the terminal fan-out (cohort ``observed_this_run``) every member
still without a plan is marked ``not_eligible`` (``not_a_preparation_target``: not enriched, or no
profile yet) and the membership is closed, so the execution can finish draining.  A retry finds the
same plans and a closed membership and records nothing; a save that loses a race with another
writer of the execution reloads and decides again.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Protocol

from jobctrl.discovery.domain.errors import WorkPlanConflict
from jobctrl.discovery.events import CohortKind
from jobctrl.discovery.use_cases.link_execution_members import load_execution, save_execution
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict

NOT_A_TARGET = "not_a_preparation_target"
TERMINAL_COHORT = "observed_this_run"
ATTEMPTS = 8


class PlannedMember(Protocol):
    @property
    def job_id(self) -> str: ...
    @property
    def steps(self) -> Sequence[str]: ...
    @property
    def child_workflow_id(self) -> str: ...


def record_fanout_plans(
    store: EventStore,
    ref: ExecutionRef,
    cohort: CohortKind,
    plans: Sequence[PlannedMember],
    *,
    clock: Clock,
) -> int:
    """Returns how many members this call marked not eligible."""

    def record() -> int:  # one attempt, on the execution as it is stored now
        execution = load_execution(store, ref, clock)
        at = isoformat(clock.now())
        for plan in plans:
            if plan.job_id not in execution.members:
                if execution.closed:
                    continue  # a late sweep after the close: the membership is final
                execution.link(plan.job_id, cohort, at=at)
            with contextlib.suppress(WorkPlanConflict):  # the first plan stands
                execution.plan(
                    plan.job_id, steps=list(plan.steps), child_workflow_id=plan.child_workflow_id, at=at
                )
        marked = 0
        if cohort == TERMINAL_COHORT:
            targeted = {p.job_id for p in plans}
            for job_id, member in sorted(execution.members.items()):
                if job_id not in targeted and member.plan_state == "pending":
                    marked += execution.mark_not_eligible(job_id, reason=NOT_A_TARGET, at=at)
            execution.close_membership(at=at)
        save_execution(store, execution, clock)
        return marked

    for attempt in range(ATTEMPTS):
        try:
            return record()
        except ConcurrencyConflict:
            if attempt == ATTEMPTS - 1:
                raise
            time.sleep(0.02 * (attempt + 1))
    return 0  # pragma: no cover - the loop returns or raises
