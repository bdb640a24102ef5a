"""One Discover execution and its members (stream ``discoveryexecution-<digest of the ref>``).

The execution reference (tenant, Discover workflow id, Temporal run id) is immutable: the run id is
part of it because the deterministic workflow id can be started again.  Each job is a member at most
once, in cohort ``observed_this_run`` or ``existing_backlog``; an observation promotes a backlog
member, and nothing demotes an observed one.  Work plans move from pending to planned (immutable
required steps + child workflow id), not_eligible (bounded reason) or failed; a failed plan may be
planned again, a planned one never changes.  Closing membership (the terminal preparation fan-out,
or the end of an interrupted run with reason ``interrupted_<why>``) refuses later members; the first
close stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.discovery.domain.errors import MembershipClosed, WorkPlanConflict
from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    WorkPlanState,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.execution import ExecutionRef, ExecutionRefPayload
from jobctrl.kernel.ids import deterministic_id
from jobctrl.kernel.text import bounded_code

ALLOWED_STEPS = frozenset({"enrich", "score", "tailor", "cover", "pdf"})
INTERRUPTED = "interrupted"


def interrupted_reason(why: str) -> str:
    """The close reason of a run that ended before its terminal fan-out: ``interrupted_<why>``
    (a bounded code; plain ``interrupted`` when ``why`` is not one)."""
    return bounded_code(f"{INTERRUPTED}_{why}", fallback=INTERRUPTED)


def execution_key(ref: ExecutionRef) -> str:
    """The execution aggregate's id: a digest of the immutable reference."""
    return deterministic_id("discovery-execution", ref.tenant_id, ref.workflow_id, ref.temporal_run_id)


@dataclass
class Member:
    cohort: CohortKind
    plan_state: WorkPlanState = "pending"
    required_steps: tuple[str, ...] = ()
    child_workflow_id: str | None = None
    reason_code: str | None = None


class DiscoveryExecution(Aggregate):
    stream_prefix = "discoveryexecution"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.ref: ExecutionRef | None = None
        self.members: dict[str, Member] = {}
        self.closed = False
        self.close_reason: str | None = None

    @classmethod
    def for_ref(cls, ref: ExecutionRef) -> DiscoveryExecution:
        execution = cls(execution_key(ref))
        execution.ref = ref
        return execution

    def _payload(self) -> ExecutionRefPayload:
        assert self.ref is not None, "an execution is always created for its ref"
        return self.ref.payload()

    def link(self, job_id: str, cohort: CohortKind, *, at: str) -> bool:
        """Link a job; returns False when nothing changes (already a member, no promotion due)."""
        current = self.members.get(job_id)
        if current is not None:
            if current.cohort == "existing_backlog" and cohort == "observed_this_run":
                self._record(
                    DiscoveryExecutionMemberPromoted(execution=self._payload(), job_id=job_id, promoted_at=at)
                )
                return True
            return False  # never a second membership, never a demotion
        if self.closed:
            raise MembershipClosed(f"execution membership is closed; {job_id} not linked")
        self._record(
            DiscoveryExecutionMemberLinked(
                execution=self._payload(), job_id=job_id, cohort=cohort, linked_at=at
            )
        )
        return True

    def plan(self, job_id: str, *, steps: list[str], child_workflow_id: str, at: str) -> bool:
        member = self._member(job_id)
        if member.plan_state == "planned":
            if (tuple(steps), child_workflow_id) == (member.required_steps, member.child_workflow_id):
                return False
            raise WorkPlanConflict(f"the plan of {job_id} is immutable once planned")
        if member.plan_state == "not_eligible":
            raise WorkPlanConflict(f"{job_id} was found not eligible")
        unknown = set(steps) - ALLOWED_STEPS
        if not steps or unknown:
            raise WorkPlanConflict(f"required steps must be a non-empty subset of {sorted(ALLOWED_STEPS)}")
        self._record(self._plan_event(job_id, "planned", list(steps), child_workflow_id, None, at))
        return True

    def mark_not_eligible(self, job_id: str, *, reason: str, at: str) -> bool:
        member = self._member(job_id)
        if member.plan_state == "not_eligible":
            return False
        if member.plan_state == "planned":
            raise WorkPlanConflict(f"{job_id} is already planned")
        self._record(self._plan_event(job_id, "not_eligible", [], None, bounded_code(reason), at))
        return True

    def mark_plan_failed(self, job_id: str, *, reason: str, at: str) -> bool:
        member = self._member(job_id)
        if member.plan_state in ("planned", "not_eligible"):
            raise WorkPlanConflict(f"{job_id} already has a terminal plan")
        if member.plan_state == "failed":
            return False
        self._record(self._plan_event(job_id, "failed", [], None, bounded_code(reason), at))
        return True

    def close_membership(self, *, at: str, reason_code: str | None = None) -> bool:
        """``reason_code`` None: the terminal fan-out closed it; else a bounded code (an interrupted
        run's ``interrupted_<why>``).  Closing a closed membership records nothing."""
        if self.closed:
            return False
        self._record(
            DiscoveryExecutionMembershipClosed(
                execution=self._payload(),
                member_count=len(self.members),
                closed_at=at,
                reason_code=None if reason_code is None else bounded_code(reason_code),
            )
        )
        return True

    def _member(self, job_id: str) -> Member:
        member = self.members.get(job_id)
        if member is None:
            raise WorkPlanConflict(f"{job_id} is not a member of this execution")
        return member

    def _plan_event(
        self,
        job_id: str,
        state: WorkPlanState,
        steps: list[str],
        child: str | None,
        reason: str | None,
        at: str,
    ) -> DiscoveryExecutionWorkPlanRecorded:
        return DiscoveryExecutionWorkPlanRecorded(
            execution=self._payload(),
            job_id=job_id,
            state=state,
            required_steps=steps,
            child_workflow_id=child,
            reason_code=reason,
            recorded_at=at,
        )

    @applies(DiscoveryExecutionMemberLinked)
    def _linked(self, event: DiscoveryExecutionMemberLinked) -> None:
        self.ref = event.execution.ref()
        self.members[event.job_id] = Member(event.cohort)

    @applies(DiscoveryExecutionMemberPromoted)
    def _promoted(self, event: DiscoveryExecutionMemberPromoted) -> None:
        self.members[event.job_id].cohort = "observed_this_run"

    @applies(DiscoveryExecutionWorkPlanRecorded)
    def _planned(self, event: DiscoveryExecutionWorkPlanRecorded) -> None:
        member = self.members[event.job_id]
        member.plan_state = event.state
        member.required_steps = tuple(event.required_steps)
        member.child_workflow_id = event.child_workflow_id
        member.reason_code = event.reason_code

    @applies(DiscoveryExecutionMembershipClosed)
    def _closed(self, event: DiscoveryExecutionMembershipClosed) -> None:
        self.closed = True
        self.close_reason = event.reason_code
