"""Steps of worker heartbeats, the spend ceiling and the operations snapshot (read by ``read_operations``,
the function the HTTP route serves)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.spend_ledger import ledger_with_settings
from jobctrl.runtime.api.operations import (
    SnapshotInputs,
    budget_blocked,
    read_operations,
)
from jobctrl.runtime.telemetry.heartbeat import (
    RuntimeIdentity,
    worker_runtime_heartbeats,
    write_heartbeat,
)

from .world import NOW, World, _snap, _value

# -- heartbeats and budget -------------------------------------------------------------------------------


def _heartbeat(world: World, seen: datetime, slots: int = 4) -> None:
    identity = RuntimeIdentity.current(
        app_dir="/tmp/app", db_path="/tmp/app/jobctrl.db", task_queue="jobctrl", slots=slots, now=seen
    )
    write_heartbeat(world.db, identity, world.telemetry, seen, {"approximate": True, "backlogCount": 0})


@given(parsers.parse('a worker with {slots:d} slots running {count:d} "{kind}" activities'))
def busy_worker(world: World, slots: int, count: int, kind: str) -> None:
    for i in range(count):
        world.telemetry.begin(kind, f"prep-preparation:{i:064x}", "run", 1)
    _heartbeat(world, NOW - timedelta(seconds=5), slots)


@given("an idle worker with a fresh heartbeat")
def idle_worker(world: World) -> None:
    _heartbeat(world, NOW - timedelta(seconds=5))


@given(parsers.parse("a busy worker whose last heartbeat is {age:d} seconds old"))
def old_worker(world: World, age: int) -> None:
    world.telemetry.begin("score", "discover-local", "run", 1)
    _heartbeat(world, NOW - timedelta(seconds=age))


@given("the only worker heartbeat has an older schema")
def old_schema_worker(world: World) -> None:
    _heartbeat(world, NOW - timedelta(seconds=5))
    with world.db.write() as conn:
        conn.execute(sa.update(worker_runtime_heartbeats).values(schema_version=1))


@given("today's LLM spend is at the daily ceiling")
def spend_at_ceiling(world: World) -> None:
    clock = FixedClock(NOW)
    SettingsStore(world.db, clock=clock).update({"daily_budget_usd": 1.0})
    ledger_with_settings(world.db, clock=clock).add(1.0)


# -- the snapshot ------------------------------------------------------------------------------------------


@when("the operations snapshot is read")
def read_snapshot(world: World) -> None:
    world.fold()
    blocked = budget_blocked(world.db, clock=FixedClock(NOW))
    with world.db.read() as conn:
        world.snapshot = read_operations(conn, SnapshotInputs(now=NOW, budget_exceeded=blocked))


@then(parsers.re(r"(?P<path>[a-zA-Z][\w.]*) is (?P<value>\S+)"))
def field_is(world: World, path: str, value: str) -> None:
    node: Any = _snap(world)
    for part in path.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    assert node == _value(value), f"{path} = {node!r}"


@then(parsers.parse('the "{stage}" counts in {scope} are {counts}'))
def stage_counts_are(world: World, stage: str, scope: str, counts: str) -> None:
    entry = next(s for s in _snap(world)["stages"] if s["stage"] == stage and s["scope"] == scope)
    for pair in counts.split(", "):
        name, n = pair.split("=")
        assert entry[name] == int(n), f"{stage}/{scope}.{name} = {entry[name]}"


@then(parsers.parse('the "{stage}" ETA in {scope} is "{status}"'))
def stage_eta_is(world: World, stage: str, scope: str, status: str) -> None:
    entry = next(s for s in _snap(world)["stages"] if s["stage"] == stage and s["scope"] == scope)
    assert entry["eta"]["status"] == status, entry["eta"]


@then(parsers.parse('the overall ETA is "{status}" because "{reason}"'))
def overall_withheld(world: World, status: str, reason: str) -> None:
    eta = _snap(world)["overallEta"]
    assert (eta["status"], eta["reason"]) == (status, reason), eta
    assert eta["lowSeconds"] is None and eta["highSeconds"] is None


@then("the overall ETA is an available range")
def overall_available(world: World) -> None:
    eta = _snap(world)["overallEta"]
    assert eta["status"] == "available", eta
    assert 0 <= eta["lowSeconds"] <= eta["highSeconds"]


@then(parsers.parse('the overall ETA is not withheld as "{reason}"'))
def overall_not_withheld_as(world: World, reason: str) -> None:
    assert _snap(world)["overallEta"]["reason"] != reason
