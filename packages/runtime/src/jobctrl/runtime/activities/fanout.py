"""``discovery_preparation_fanout``: start one JobPreparationWorkflow per eligible job.

Each start uses the deterministic id ``prep-{idempotencyKey}`` with ``USE_EXISTING`` on conflict, so
a retried fan-out (or a second Discover pass over the same facts) attaches to the running workflow
instead of starting a duplicate.  Targets come from a port (the orchestration context's
``derive_preparation_targets`` at integration).

The fan-out also records the execution's durable facts (ADR 0070): each target's work plan
(``planned``: required steps + child workflow id ``prep-…``; a backlog target is linked first), and
at the terminal fan-out (cohort ``observed_this_run``) every member still without a plan is marked
``not_eligible`` (``not_a_preparation_target``: not enriched, or no profile yet) and the membership
is closed, so the execution can finish draining.  All of it is idempotent: a retried fan-out finds
the same plans and a closed membership and records nothing new.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence

from temporalio import activity
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError

from jobctrl.activity_contracts.contracts import ExecutionRef, FanoutInput, FanoutResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.discovery import DiscoveryExecutionRef, WorkPlanConflict, load_execution, save_execution
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.orchestration import (
    JobPreparationInput,
    JobPreparationWorkflow,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.runtime.activities.deps import ActivityDeps

BATCH = 25
NOT_A_TARGET = "not_a_preparation_target"
TERMINAL_COHORT = "observed_this_run"


class _Plan:
    __slots__ = ("child_workflow_id", "job_id", "steps")

    def __init__(self, job_id: str, steps: list[str], child_workflow_id: str) -> None:
        self.job_id, self.steps, self.child_workflow_id = job_id, steps, child_workflow_id


class FanoutActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="discovery_preparation_fanout")
    async def discovery_preparation_fanout(self, params: FanoutInput) -> FanoutResult:
        client = self.deps.client
        if client is None:
            raise to_application_error(ConfigurationError("the fan-out needs a Temporal client"))
        ex = params.execution
        targets = self.deps.targets.targets(ex.tenant_id, ex.temporal_run_id, params.cohort)
        task_queue = params.task_queue or activity.info().task_queue
        plans: list[_Plan] = []
        starts: list[tuple[str, JobPreparationInput]] = []
        for target in targets:
            key = preparation_idempotency_key(
                ex.tenant_id, target.job_id, target.kind, target.target_version, target.source_event_id
            )
            steps = (
                ["score", "tailor", "cover", "pdf"]
                if target.kind == "score_job"
                else ["tailor", "cover", "pdf"]
            )
            plans.append(_Plan(target.job_id, list(steps), preparation_workflow_id(key)))
            starts.append(
                (
                    preparation_workflow_id(key),
                    JobPreparationInput(
                        tenant=ex.tenant_id,
                        job_id=target.job_id,
                        idempotency_key=key,
                        steps=steps,  # type: ignore[arg-type]
                        target_version=target.target_version,
                        execution=ExecutionRef(ex.tenant_id, ex.workflow_id, ex.temporal_run_id),
                        cohort=params.cohort,
                        heartbeat_timeout_s=params.heartbeat_timeout_s,
                    ),
                )
            )

        async def start(workflow_id: str, payload: JobPreparationInput) -> bool:
            try:
                await client.start_workflow(
                    JobPreparationWorkflow.run,
                    payload,
                    id=workflow_id,
                    task_queue=task_queue,
                    id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
                    id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
                )
            except WorkflowAlreadyStartedError:
                return False  # prepared already under this key: never redone; a failed one may rerun
            return True

        # A batch of starts in flight at once (each start is one round trip to the server); a batch
        # that raises fails the activity and its retry re-attaches to what was started.
        started = already = 0
        for first in range(0, len(starts), BATCH):
            outcomes = await asyncio.gather(*(start(w, p) for w, p in starts[first : first + BATCH]))
            started += sum(outcomes)
            already += len(outcomes) - sum(outcomes)
            activity.heartbeat(first + len(outcomes))
        not_eligible = await asyncio.to_thread(self._record_plans, params, plans)
        return FanoutResult(started_workflows=started, not_eligible=not_eligible, already_prepared=already)

    def _record_plans(self, params: FanoutInput, plans: Sequence[_Plan]) -> int:
        """Write the work plans (and, at the terminal fan-out, close the membership); returns how many
        members were marked not eligible by this call."""
        for attempt in range(8):
            try:
                return self._write_plans(params, plans)
            except ConcurrencyConflict:
                if attempt == 7:
                    raise
                time.sleep(0.02 * (attempt + 1))
        return 0  # pragma: no cover - the loop returns or raises

    def _write_plans(self, params: FanoutInput, plans: Sequence[_Plan]) -> int:
        ex = params.execution
        store, clock = self.deps.store, self.deps.clock
        execution = load_execution(
            store, DiscoveryExecutionRef(ex.tenant_id, ex.workflow_id, ex.temporal_run_id), clock
        )
        at = isoformat(clock.now())
        for plan in plans:
            if plan.job_id not in execution.members:
                if execution.closed:
                    continue  # a late sweep after the close: the membership is final
                execution.link(plan.job_id, params.cohort, at=at)
            # The first plan stands (immutable), e.g. a member found not eligible earlier.
            with contextlib.suppress(WorkPlanConflict):
                execution.plan(plan.job_id, steps=plan.steps, child_workflow_id=plan.child_workflow_id, at=at)
        marked = 0
        if params.cohort == TERMINAL_COHORT:
            targeted = {p.job_id for p in plans}
            for job_id, member in sorted(execution.members.items()):
                if job_id not in targeted and member.plan_state == "pending":
                    marked += execution.mark_not_eligible(job_id, reason=NOT_A_TARGET, at=at)
            execution.close_membership(at=at)
        save_execution(store, execution, clock)
        return marked
