"""Scenarios of features/projections/discovery_views.feature, both databases (shared steps such as
the apply-run ones are in steps_views.py)."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.apply.events import ApplicationSubmitted, ApplySubmissionBlocked, BlockReason
from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryRunFailed,
    DiscoveryRunProgressRecorded,
    JobSourceObserved,
    SourceRegistryEntryCreated,
    SourceStateChanged,
    WorkPlanState,
)
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.projections.read_models.apply_runs import apply_run_projections
from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
    discovery_executions,
)
from jobctrl.projections.read_models.discovery_runs import discovery_run_projections
from jobctrl.projections.read_models.scoring_policies import scoring_policy_projections
from jobctrl.projections.read_models.source_quality import source_quality_projections
from jobctrl.testing.synthetic.executions import scoring_policy_saved
from jobctrl.testing.vocabulary import one_of

from .world import World

pytestmark = pytest.mark.both_databases
scenarios("projections/discovery_views.feature")

AT = "2026-03-01T09:00:00.000Z"
COHORTS: tuple[CohortKind, ...] = get_args(CohortKind)
PLAN_STATES: tuple[WorkPlanState, ...] = get_args(WorkPlanState)
BLOCK_REASONS: tuple[BlockReason, ...] = get_args(BlockReason)
EXECUTION = ExecutionRefPayload(tenant_id="local", workflow_id="discover-local", temporal_run_id="r1")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


def _one(world: World, table: sa.Table, *where: Any) -> Any:
    with world.fold().read() as conn:
        return conn.execute(sa.select(table).where(*where)).one()


# -- execution membership -------------------------------------------------------------------------
@given(parsers.parse('job "{job}" joined the execution as "{cohort}"'))
@when(parsers.parse('job "{job}" joined the execution as "{cohort}"'))
def linked(world: World, job: str, cohort: str) -> None:
    world.append(
        DiscoveryExecutionMemberLinked(
            execution=EXECUTION, job_id=job, cohort=one_of(COHORTS, cohort), linked_at=AT
        )
    )


@given(parsers.parse('job "{job}" was promoted by an observation'))
def promoted(world: World, job: str) -> None:
    world.append(DiscoveryExecutionMemberPromoted(execution=EXECUTION, job_id=job, promoted_at=AT))


def _plan(job: str, state: str, steps: list[str], child: str | None, reason: str | None) -> Any:
    return DiscoveryExecutionWorkPlanRecorded(
        execution=EXECUTION,
        job_id=job,
        state=one_of(PLAN_STATES, state),
        required_steps=steps,
        child_workflow_id=child,
        reason_code=reason,
        recorded_at=AT,
    )


@given(parsers.parse('the plan of "{job}" failed with "{reason}"'))
def plan_failed(world: World, job: str, reason: str) -> None:
    world.append(_plan(job, "failed", [], None, reason))


@given(parsers.parse('job "{job}" was planned with steps "{steps}" under child "{child}"'))
def planned(world: World, job: str, steps: str, child: str) -> None:
    world.append(_plan(job, "planned", steps.split(","), child, None))


@when(parsers.parse('the plan of "{job}" was recorded not eligible with "{reason}"'))
def not_eligible(world: World, job: str, reason: str) -> None:
    world.append(_plan(job, "not_eligible", [], None, reason))


@given(parsers.parse("the execution membership closed with {count:d} member"))
@when(parsers.parse("the execution membership closed with {count:d} members"))
def closed(world: World, count: int) -> None:
    world.append(DiscoveryExecutionMembershipClosed(execution=EXECUTION, member_count=count, closed_at=AT))


@then(parsers.parse('job "{job}" is a member in cohort "{cohort}"'))
def member_cohort(world: World, job: str, cohort: str) -> None:
    t = discovery_execution_jobs
    row = _one(world, t, t.c.job_id == job)
    assert (row.workflow_id, row.run_id, row.cohort) == ("discover-local", "r1", cohort)


@then(parsers.parse('the plan of "{job}" is "{state}" with steps "{steps}" under child "{child}"'))
def plan_is(world: World, job: str, state: str, steps: str, child: str) -> None:
    t = discovery_execution_jobs
    row = _one(world, t, t.c.job_id == job)
    assert (row.plan_state, json.loads(row.required_steps_json), row.child_workflow_id, row.plan_reason) == (
        state,
        steps.split(","),
        child,
        None,
    )


@then(parsers.parse("the execution membership is closed with {count:d} member"))
def closed_with(world: World, count: int) -> None:
    t = discovery_executions
    row = _one(world, t, t.c.workflow_id == "discover-local")
    assert (row.membership_closed, row.closed_member_count) == (True, count)


# -- discovery runs -------------------------------------------------------------------------------
@given(parsers.parse('discovery run "{run}" reported {done:d} of {total:d}'))
@when(parsers.parse('discovery run "{run}" reported {done:d} of {total:d}'))
def progress(world: World, run: str, done: int, total: int) -> None:
    world.append(DiscoveryRunProgressRecorded(run_id=run, completed=done, total=total, recorded_at=AT))


@then(parsers.parse('discovery run "{run}" shows {done:d} of {total:d}'))
def progress_is(world: World, run: str, done: int, total: int) -> None:
    t = discovery_run_projections
    row = _one(world, t, t.c.run_id == run)
    assert (row.status, row.progress_completed, row.progress_total) == ("running", done, total)


@when(parsers.parse('discovery run "{run}" was interrupted because its workflow was "{reason}"'))
def interrupted(world: World, run: str, reason: str) -> None:
    world.append(
        DiscoveryRunFailed(run_id=run, source_id="", error_class=reason, retryable=True, failed_at=AT)
    )


@then(parsers.parse('discovery run "{run}" is failed with "{reason}" and no failed source'))
def interrupted_row(world: World, run: str, reason: str) -> None:
    t = discovery_run_projections
    row = _one(world, t, t.c.run_id == run)
    assert (row.status, row.error_classes_json, row.failed_source_id, row.progress_completed) == (
        "failed",
        f'["{reason}"]',
        None,
        1,
    )


@then(
    parsers.parse('source "{source}" has no run failure and no source row was made for the interrupted run')
)
def no_blame(world: World, source: str) -> None:
    t = source_quality_projections
    with world.fold().read() as conn:
        rows = conn.execute(sa.select(t.c.source_id, t.c.run_failures, t.c.last_error_class)).all()
    assert [tuple(r) for r in rows] == [(source, 0, None)]


# -- source quality -------------------------------------------------------------------------------
@given(parsers.parse('source "{source}" was registered'))
def registered(world: World, source: str) -> None:
    world.append(
        SourceRegistryEntryCreated(
            source_id=source, kind="ats_api", policy_id="p1", state="active", created_at=AT
        )
    )


@given(parsers.parse('source "{source}" failed a run twice'))
def failed_twice(world: World, source: str) -> None:
    for run in ("run-1", "run-2"):
        world.append(
            DiscoveryRunFailed(
                run_id=run, source_id=source, error_class="source_unavailable", retryable=True, failed_at=AT
            )
        )


@given(parsers.parse('source "{source}" was quarantined'))
def quarantined(world: World, source: str) -> None:
    world.append(
        SourceStateChanged(
            source_id=source,
            from_state="active",
            to_state="quarantined",
            reason="consecutive_failures",
            changed_at=AT,
        )
    )


@when(parsers.parse('source "{source}" observed a job'))
def observed(world: World, source: str) -> None:
    world.append(
        JobSourceObserved(
            job_id="job-1",
            source_observation_id="obs-1",
            source_id=source,
            source_native_id="123",
            observed_url="https://boards.example/1",
            run_id="run-3",
            observed_at=AT,
        )
    )


@then(
    parsers.parse(
        'source "{source}" is "{state}" with {failures:d} failures, {row_:d} in a row'
        " and {seen:d} observation"
    )
)
def source_is(world: World, source: str, state: str, failures: int, row_: int, seen: int) -> None:
    t = source_quality_projections
    row = _one(world, t, t.c.source_id == source)
    assert (row.state, row.run_failures, row.consecutive_failures, row.observations) == (
        state,
        failures,
        row_,
        seen,
    )
    assert row.kind == "ats_api" and row.last_error_class == "source_unavailable"


# -- apply ----------------------------------------------------------------------------------------
@given(parsers.parse('apply run "{run}" was blocked for "{reason}"'))
def apply_blocked(world: World, run: str, reason: str) -> None:
    world.append(
        ApplySubmissionBlocked(
            job_id="job-1", run_id=run, reason=one_of(BLOCK_REASONS, reason), blocked_at=AT
        )
    )


@when(parsers.parse('apply run "{run}" reports a late submission'))
def late_submission(world: World, run: str) -> None:
    world.append(ApplicationSubmitted(job_id="job-1", run_id=run, applied_at=AT, verification_confidence=0.9))


@then(parsers.parse('apply run "{run}" is "{status}" with code "{code}"'))
def apply_is(world: World, run: str, status: str, code: str) -> None:
    t = apply_run_projections
    row = _one(world, t, t.c.run_id == run)
    assert (row.status, row.result_code, row.finished_at) == (status, code, AT)


# -- scoring policies -----------------------------------------------------------------------------
@given(parsers.parse('scoring policy "{policy}" version {version:d} was saved'))
@when(parsers.parse('scoring policy "{policy}" version {version:d} was saved'))
def policy_saved(world: World, policy: str, version: int) -> None:
    world.append(scoring_policy_saved(policy, version, criteria=f"criteria v{version}", at=AT))


@then(parsers.parse('scoring policy "{policy}" is at version {version:d}'))
def policy_is(world: World, policy: str, version: int) -> None:
    t = scoring_policy_projections
    row = _one(world, t, t.c.policy_id == policy)
    assert (row.policy_version, row.policy_fingerprint, row.criteria) == (
        version,
        f"fp-{version}",
        f"criteria v{version}",
    )
