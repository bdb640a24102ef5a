"""The durable ends of a Discover execution (ADR 0070), written through the discovery context's
commands (the fan-out's by ``record_fanout_plans``, ADR 0261): the run's terminal fact, the members'
work plans, the closed membership."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobctrl.activity_contracts.contracts import (
    FamilyOutcome,
    FinishDiscoveryRunInput,
    SourceFamilyResult,
)
from jobctrl.discovery.events import (
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryRunCompleted,
    DiscoveryRunFailed,
)
from jobctrl.discovery.use_cases.close_execution_membership import InterruptedMembershipCloser
from jobctrl.discovery.use_cases.link_execution_members import link_execution_members, load_execution
from jobctrl.discovery.use_cases.record_fanout_plans import record_fanout_plans
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import WorkPlan, start_discovery_run
from jobctrl.orchestration.activities import DiscoveryRunActivities

pytestmark = pytest.mark.both_databases

EX = ExecutionRef("local", "discover-local", "run-1")
CLOCK = FixedClock(datetime(2026, 11, 30, 7, 0, tzinfo=UTC))


def _run_acts(store: EventStore) -> DiscoveryRunActivities:
    return DiscoveryRunActivities(
        store, close_membership=InterruptedMembershipCloser(store, CLOCK), clock=CLOCK
    )


def _decoded(store: EventStore) -> list[object]:
    return [store.registry.decode(e) for e in store.read_all(limit=10_000)]


def _start(store: EventStore) -> None:
    start_discovery_run(
        store, run_id=EX.temporal_run_id, source_ids=["a", "b"], family_count=2, clock=CLOCK,
        workflow_id=EX.workflow_id,
    )  # fmt: skip


def test_finish_completes_with_summed_counts_and_the_failed_families_classes(store: EventStore) -> None:
    _start(store)
    acts = _run_acts(store)
    params = FinishDiscoveryRunInput(
        EX,
        [
            FamilyOutcome(
                "lever", SourceFamilyResult("lever", 3, 2, total=4, existing_jobs=1, duplicate_jobs=1)
            ),
            FamilyOutcome("greenhouse", None, "source_unavailable", True),
        ],
    )
    assert acts.finish_discovery_run(params) is True
    assert acts.finish_discovery_run(params) is False  # a retried activity records nothing new
    done = [e for e in _decoded(store) if isinstance(e, DiscoveryRunCompleted)]
    assert len(done) == 1
    assert (done[0].counts.total, done[0].counts.new_jobs, done[0].counts.observed_jobs) == (4, 2, 3)
    assert done[0].error_classes == ["source_unavailable"]


def test_finish_fails_the_run_when_every_family_failed(store: EventStore) -> None:
    _start(store)
    acts = _run_acts(store)
    acts.finish_discovery_run(
        FinishDiscoveryRunInput(EX, [FamilyOutcome("lever", None, "robots_disallowed", False)])
    )
    events = _decoded(store)
    failed = [e for e in events if isinstance(e, DiscoveryRunFailed)]
    assert [f.error_class for f in failed] == ["robots_disallowed"]
    assert not [e for e in events if isinstance(e, DiscoveryRunCompleted)]


def test_finish_of_a_run_never_started_records_nothing(store: EventStore) -> None:
    acts = _run_acts(store)
    assert acts.finish_discovery_run(FinishDiscoveryRunInput(EX, [])) is False
    assert _decoded(store) == []


def test_fanout_plans_targets_marks_the_rest_not_eligible_and_closes_once(store: EventStore) -> None:
    ref = EX
    link_execution_members(store, ref, ["job-a", "job-b"], "observed_this_run", clock=CLOCK)
    # The backlog sweep: its target is linked as a backlog member, then planned.
    old = WorkPlan("job-old", ("score", "tailor"), "prep-old", "preparation:old", 1)
    record_fanout_plans(store, ref, "existing_backlog", [old], clock=CLOCK)
    plans = [WorkPlan("job-a", ("score", "tailor", "cover", "pdf"), "prep-a", "preparation:a", 1)]
    assert (
        record_fanout_plans(store, ref, "observed_this_run", plans, clock=CLOCK) == 1
    )  # job-b: not a target
    assert (
        record_fanout_plans(store, ref, "observed_this_run", plans, clock=CLOCK) == 0
    )  # a retry: nothing new
    events = _decoded(store)
    recorded = {
        e.job_id: (e.state, e.child_workflow_id, e.reason_code)
        for e in events
        if isinstance(e, DiscoveryExecutionWorkPlanRecorded)
    }
    assert recorded == {
        "job-old": ("planned", "prep-old", None),
        "job-a": ("planned", "prep-a", None),
        "job-b": ("not_eligible", None, "not_a_preparation_target"),
    }
    assert sum(isinstance(e, DiscoveryExecutionWorkPlanRecorded) for e in events) == 3
    closed = [e for e in events if isinstance(e, DiscoveryExecutionMembershipClosed)]
    assert [c.member_count for c in closed] == [3]
    assert load_execution(store, ref, CLOCK).closed
