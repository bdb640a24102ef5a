"""Steps for features/api/api_bad_input.feature (shared steps in conftest.py)."""

from __future__ import annotations

import pytest
from pytest_bdd import parsers, scenarios, then, when

from jobctrl.orchestration.adapters.settings_store import SettingsStore

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("api/api_bad_input.feature")


@when(parsers.parse('the operator retries stage "{stage}" of job "{job}" and runs it now'))
def retry_and_run(world: World, stage: str, job: str) -> None:
    world.call("POST", f"/v1/jobs/{job}/actions/retry-stage", json={"stage": stage, "runAfter": True})


@when(parsers.parse("the operator sets workerActivitySlots to {value:d}"))
def set_slots(world: World, value: int) -> None:
    world.call("PATCH", "/v1/settings", json={"workerActivitySlots": value})


@when(parsers.parse('the operator saves a profile with an unknown section "{section}"'))
def bad_profile(world: World, section: str) -> None:
    world.call("PATCH", "/v1/profile", json={section: "x"})


@then(parsers.parse("the saved worker activity slots are still {value:d}"))
def slots_unchanged(world: World, value: int) -> None:
    assert SettingsStore(world.db).load().worker_activity_slots == value
