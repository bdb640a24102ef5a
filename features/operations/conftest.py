"""Shared fixture of features/operations: past events go into the log and are folded by the projection
runner; worker heartbeats are written by the telemetry's own ``write_heartbeat``; the snapshot is
read by ``read_operations`` (the same function the HTTP route serves).  The steps live by concern in
the sibling modules imported below: pytest-bdd registers each step as a fixture in the module that
defines it, so importing them here makes them visible to every scenario in this folder."""

from __future__ import annotations

import pytest

from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api.operations import ensure_operations_schema

from .steps_execution import *  # noqa: F403 (registers the execution steps)
from .steps_recovery import *  # noqa: F403 (registers the checkpoint and coverage steps)
from .steps_snapshot import *  # noqa: F403 (registers the heartbeat, budget and snapshot steps)
from .world import World


@pytest.fixture
def world(store: EventStore, database: Database) -> World:
    ensure_operations_schema(database)
    return World(store)
