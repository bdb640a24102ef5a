"""Steps of features/discovery/execution_membership.feature (SQLite and PostgreSQL)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.events import DiscoveryExecutionMembershipClosed
from jobctrl.discovery.use_cases.close_execution_membership import (
    close_execution_membership,
    close_interrupted_membership,
)
from jobctrl.discovery.use_cases.link_execution_members import link_execution_members, load_execution
from jobctrl.discovery.use_cases.record_work_plan import (
    mark_member_not_eligible,
    mark_member_plan_failed,
    plan_member,
)
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore

pytestmark = pytest.mark.both_databases
scenarios("discovery/execution_membership.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@dataclass
class World:
    """What an execution-membership scenario remembers between its steps."""

    closed: bool | None = None  # whether the interrupted close recorded the closing (None: not interrupted)


@pytest.fixture
def world() -> World:
    return World()


def _ref(workflow: str, run: str) -> ExecutionRef:
    return ExecutionRef("local", workflow, run)


def _members(store: EventStore, ref: ExecutionRef, clock: FixedClock) -> str:
    execution = load_execution(store, ref, clock)
    return ", ".join(f"{job}:{m.cohort}" for job, m in sorted(execution.members.items()))


@given(parsers.parse('a Discover execution "{workflow}" run "{run}"'), target_fixture="ref")
def execution(workflow: str, run: str) -> ExecutionRef:
    return _ref(workflow, run)


@given(
    parsers.parse('a Discover execution "{workflow}" run "{run}" of tenant "{tenant}"'), target_fixture="ref"
)
def tenant_execution(workflow: str, run: str, tenant: str) -> ExecutionRef:
    return ExecutionRef(tenant, workflow, run)


@when(parsers.parse('jobs "{jobs}" are linked as {cohort}'))
def link(store: EventStore, clock: FixedClock, ref: ExecutionRef, jobs: str, cohort: Any) -> None:
    link_execution_members(store, ref, jobs.split(","), cohort, clock=clock)


@when(parsers.parse('the Discover execution "{workflow}" run "{run}" links jobs "{jobs}" as {cohort}'))
def link_other(store: EventStore, clock: FixedClock, workflow: str, run: str, jobs: str, cohort: Any) -> None:
    link_execution_members(store, _ref(workflow, run), jobs.split(","), cohort, clock=clock)


@when(parsers.parse('"{job}" is planned with steps "{steps}" under child workflow "{child}"'))
def plan(store: EventStore, clock: FixedClock, ref: ExecutionRef, job: str, steps: str, child: str) -> None:
    plan_member(store, ref, job, steps=steps.split(","), child_workflow_id=child, clock=clock)


@when(parsers.parse('"{job}" is marked not eligible because "{reason}"'))
def not_eligible(store: EventStore, clock: FixedClock, ref: ExecutionRef, job: str, reason: str) -> None:
    mark_member_not_eligible(store, ref, job, reason=reason, clock=clock)


@when(parsers.parse('"{job}" planning failed because "{reason}"'))
def plan_failed(store: EventStore, clock: FixedClock, ref: ExecutionRef, job: str, reason: str) -> None:
    mark_member_plan_failed(store, ref, job, reason=reason, clock=clock)


@when("membership is closed")
def close(store: EventStore, clock: FixedClock, ref: ExecutionRef) -> None:
    assert close_execution_membership(store, ref, clock=clock)
    assert not close_execution_membership(store, ref, clock=clock)  # closing twice records nothing


@when(parsers.parse('the execution is interrupted because "{why}"'))
def interrupt(store: EventStore, clock: FixedClock, ref: ExecutionRef, world: World, why: str) -> None:
    world.closed = close_interrupted_membership(store, ref, why=why, clock=clock)
    before = store.head_position()
    assert not close_interrupted_membership(store, ref, why=why, clock=clock)  # a second close: nothing
    assert store.head_position() == before


@then("the interruption closed the membership")
def interruption_closed(world: World) -> None:
    assert world.closed is True


@then("the interruption recorded nothing")
def interruption_recorded_nothing(world: World) -> None:
    assert world.closed is False


@then(
    parsers.parse(
        "a DiscoveryExecutionMembershipClosed event records {count:d} members "
        'under tenant "{tenant}" for "{reason}"'
    )
)
def interrupted_close_event(
    store: EventStore, clock: FixedClock, ref: ExecutionRef, count: int, tenant: str, reason: str
) -> None:
    [row] = store.read_all(types=["DiscoveryExecutionMembershipClosed"])
    event = store.registry.decode(row)
    assert isinstance(event, DiscoveryExecutionMembershipClosed)
    assert (event.member_count, event.reason_code, row.tenant_id) == (count, reason, tenant)
    assert event.execution.tenant_id == tenant and row.meta().run_id == ref.temporal_run_id
    execution = load_execution(store, ref, clock)
    assert execution.closed and execution.close_reason == reason


@then(parsers.parse('the members\' plans stay "{expected}"'))
def plans_stay(store: EventStore, clock: FixedClock, ref: ExecutionRef, expected: str) -> None:
    execution = load_execution(store, ref, clock)
    assert ", ".join(f"{j}:{m.plan_state}" for j, m in sorted(execution.members.items())) == expected


@then(parsers.parse('the execution has members "{expected}"'))
def members(store: EventStore, clock: FixedClock, ref: ExecutionRef, expected: str) -> None:
    assert _members(store, ref, clock) == expected


@then(parsers.parse('the execution "{workflow}" run "{run}" has members "{expected}"'))
def other_members(store: EventStore, clock: FixedClock, workflow: str, run: str, expected: str) -> None:
    assert _members(store, _ref(workflow, run), clock) == expected


@then(
    parsers.parse(
        "{linked:d} DiscoveryExecutionMemberLinked and {promoted:d} DiscoveryExecutionMemberPromoted "
        "events were raised"
    )
)
def counts(store: EventStore, linked: int, promoted: int) -> None:
    assert len(store.read_all(types=["DiscoveryExecutionMemberLinked"])) == linked
    assert len(store.read_all(types=["DiscoveryExecutionMemberPromoted"])) == promoted


@then(parsers.parse('the work plans are "{expected}"'))
def plans(store: EventStore, clock: FixedClock, ref: ExecutionRef, expected: str) -> None:
    execution = load_execution(store, ref, clock)
    assert ", ".join(f"{j}:{m.plan_state}" for j, m in sorted(execution.members.items())) == expected
    j1 = execution.members["j1"]
    assert (j1.required_steps, j1.child_workflow_id) == (("score", "tailor", "cover"), "prep-abc")


@then(parsers.parse('planning "{job}" again with steps "{steps}" fails with "{code}"'))
def replan_fails(
    store: EventStore, clock: FixedClock, ref: ExecutionRef, job: str, steps: str, code: str
) -> None:
    before = store.head_position()
    with pytest.raises(JobCtrlError) as err:
        plan_member(store, ref, job, steps=steps.split(","), child_workflow_id="prep-zzz", clock=clock)
    assert err.value.code == code and store.head_position() == before


@then(parsers.parse('planning "{job}" again with steps "{steps}" under child workflow "{child}" succeeds'))
def replan_ok(
    store: EventStore, clock: FixedClock, ref: ExecutionRef, job: str, steps: str, child: str
) -> None:
    assert plan_member(store, ref, job, steps=steps.split(","), child_workflow_id=child, clock=clock)
    assert load_execution(store, ref, clock).members[job].plan_state == "planned"


@then(parsers.parse('the recorded reason of "{job}" is "{code}"'))
def reason(store: EventStore, clock: FixedClock, ref: ExecutionRef, job: str, code: str) -> None:
    assert load_execution(store, ref, clock).members[job].reason_code == code


@then(parsers.parse('linking jobs "{jobs}" as {cohort} fails with "{code}"'))
def link_fails(
    store: EventStore, clock: FixedClock, ref: ExecutionRef, jobs: str, cohort: Any, code: str
) -> None:
    with pytest.raises(JobCtrlError) as err:
        link_execution_members(store, ref, jobs.split(","), cohort, clock=clock)
    assert err.value.code == code


@then(parsers.parse("a DiscoveryExecutionMembershipClosed event records {count:d} member"))
def closed_event(store: EventStore, count: int) -> None:
    [row] = store.read_all(types=["DiscoveryExecutionMembershipClosed"])
    event = store.registry.decode(row)
    assert isinstance(event, DiscoveryExecutionMembershipClosed) and event.member_count == count
    assert event.reason_code is None  # the terminal fan-out's close
    assert row.meta().workflow_id == event.execution.workflow_id == "discover-daily"
