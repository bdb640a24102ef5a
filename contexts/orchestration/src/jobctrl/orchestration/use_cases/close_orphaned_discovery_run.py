"""Close the DiscoveryRun of a Discover workflow run that ended without running its own code (ADR 0079).

A terminated or timed-out Discover (or one whose worker died and Temporal then closed it) never
reached its ``interrupt_discovery_run`` activity, so its DiscoveryRun would stay open in the read
model for ever.  When the describe-based reconciler settles such a run it closes the discovery run
first, with the verdict's own code as the reason, and only then appends the ``Workflow*`` verdict: a
crash between the two leaves the workflow run open, and the next pass closes nothing twice (the run's
first terminal fact wins) and appends the verdict.  The execution's membership (discovery's fact,
through the ``close_membership`` port) is closed between the two, with ``interrupted_<verdict code>``
(ADR 0083; a no-op once closed, so also on the next pass).
"""

from __future__ import annotations

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.workflow_run import DescribedStatus, WorkflowRun
from jobctrl.orchestration.ports import CloseInterruptedMembership
from jobctrl.orchestration.use_cases.interrupt_discovery_run import interrupt_discovery_run
from jobctrl.orchestration.workflows.discover import WORKFLOW_TYPE as DISCOVER

#: A rerun may succeed after Temporal stopped the run; a cancel was somebody's decision, and a failure
#: Temporal reports without our own outcome carries no code we could trust to be transient.
RETRYABLE: frozenset[DescribedStatus] = frozenset({DescribedStatus.TERMINATED, DescribedStatus.TIMED_OUT})


def close_orphaned_discovery_run(
    store: EventStore,
    run: WorkflowRun,
    tenant_id: str,
    status: DescribedStatus,
    reason: str,
    clock: Clock,
    close_membership: CloseInterruptedMembership,
) -> bool:
    """True when this call recorded the discovery run's terminal fact; the execution's membership is
    closed too.  A completed workflow finished its run and closed its membership itself (ADR 0070);
    another workflow type has neither."""
    if run.workflow_type != DISCOVER or status is DescribedStatus.COMPLETED:
        return False
    ended = interrupt_discovery_run(
        store,
        run_id=run.run_id,
        reason=reason,
        retryable=status in RETRYABLE,
        clock=clock,
        workflow_id=run.workflow_id,
        tenant_id=tenant_id,
    )
    close_membership(tenant_id, run.workflow_id, run.run_id, reason)
    return ended
