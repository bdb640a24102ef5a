"""Steps for features/api/api_retry_and_run.feature (shared steps in conftest.py)."""

from __future__ import annotations

import pytest
from pytest_bdd import parsers, scenarios, then, when

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("api/api_retry_and_run.feature")


@when(parsers.parse('the operator retries stage "{stage}" of job "{job}" and runs it now'))
def retry_and_run(world: World, stage: str, job: str) -> None:
    world.call("POST", f"/v1/jobs/{job}/actions/retry-stage", json={"stage": stage, "runAfter": True})


@when(parsers.parse('the operator retries stage "{stage}" of job "{job}" without running it'))
def retry_only(world: World, stage: str, job: str) -> None:
    world.call("POST", f"/v1/jobs/{job}/actions/retry-stage", json={"stage": stage, "runAfter": False})


@then(parsers.parse('a JobPreparationWorkflow was started for job "{job}"'))
def preparation_started(world: World, job: str) -> None:
    [(workflow_type, _, arg)] = world.control.started
    assert workflow_type == "JobPreparationWorkflow" and arg.job_id == job
