"""Steps of the recovery checkpoint, the deep projection check and the coverage the runtime publishes."""

from __future__ import annotations

import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.healing import heal, verify_projections
from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.recoveries import (
    KeySets,
    discovery_execution_recoveries,
    persisted_key_sets,
    record_native_checkpoint,
    verify_native_execution,
)
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.runtime.reconcile.coverage import reconcile_coverage

from .world import KEY, NOW, RUN, World, _iso, _link

# -- recovery checkpoint ------------------------------------------------------------------------------


@given("the reconciler verified a native checkpoint of what is persisted")
@when("the reconciler verifies a native checkpoint of what is persisted")
def checkpoint_of_persisted(world: World) -> None:
    world.fold()
    with world.db.read() as conn:
        expected = persisted_key_sets(conn, KEY)
    world.checkpoint = record_native_checkpoint(world.db, KEY, expected, history_event_id=42, now=_iso(NOW))


@given("the projections have caught up")
def caught_up(world: World) -> None:
    world.fold()


@given(parsers.parse('job "{job}" is linked to the execution but not yet projected'))
def linked_not_projected(world: World, job: str) -> None:
    _link(world, job, "observed", "pending")


@when("the reconciler verifies the execution against the event log")
def verify_against_log(world: World) -> None:
    world.checkpoint = verify_native_execution(world.store, KEY, history_event_id=7, now=_iso(NOW))


@when(parsers.parse('the reconciler expects job "{job}" instead of job "{other}"'))
def checkpoint_with_other_key(world: World, job: str, other: str) -> None:
    world.fold()
    with world.db.read() as conn:
        persisted = persisted_key_sets(conn, KEY)
    expected = KeySets((persisted.members - {other}) | {job}, persisted.steps)
    world.checkpoint = record_native_checkpoint(world.db, KEY, expected, history_event_id=42, now=_iso(NOW))


@when(parsers.parse('someone rewrites the membership row of job "{job}" to "{new}"'))
def tamper_membership(world: World, job: str, new: str) -> None:
    t = discovery_execution_jobs
    with world.db.write() as conn:
        conn.execute(sa.update(t).where(t.c.job_id == job).values(job_id=new))


@when("the projections catch up")
def catch_up(world: World) -> None:
    world.fold()


@then(parsers.parse('the deep projection check finds "{projection}" broken by "{reason}"'))
def deep_check_finds(world: World, projection: str, reason: str) -> None:
    findings = verify_projections(world.db, OPERATIONS, watermark=OPERATIONS_WATERMARK, deep=True)
    assert [(f.projection, f.reason) for f in findings] == [(projection, reason)], findings


@when("the projections heal with the deep check")
def heal_deep(world: World) -> None:
    assert heal(world.db, world.store.registry, OPERATIONS, watermark=OPERATIONS_WATERMARK, deep=True)


@then(parsers.parse('job "{job}" is a member of the execution again'))
def member_again(world: World, job: str) -> None:
    t = discovery_execution_jobs
    with world.db.read() as conn:
        members = set(conn.execute(sa.select(t.c.job_id).where(t.c.run_id == RUN)).scalars())
    assert job in members and "forged" not in members, members


@when("someone changes the checkpoint's digest")
def tamper_checkpoint(world: World) -> None:
    t = discovery_execution_recoveries
    with world.db.write() as conn:
        conn.execute(sa.update(t).where(t.c.run_id == RUN).values(key_digest="f" * 64))


@when("the runtime writes the coverage checkpoints")
def runtime_coverage(world: World) -> None:
    world.coverage = reconcile_coverage(world.store, FixedClock(NOW)).published


@then(parsers.parse('the runtime published "{status}"'))
def runtime_published(world: World, status: str) -> None:
    assert world.coverage == {RUN: status}, world.coverage


@then(parsers.parse('the runtime published "{status}" for "{workflow}"'))
def runtime_published_for(world: World, status: str, workflow: str) -> None:
    assert world.coverage[f"{workflow}-run"] == status, world.coverage


@then(parsers.parse('the checkpoint writer published "{status}"'))
def checkpoint_published(world: World, status: str) -> None:
    assert world.checkpoint == status
