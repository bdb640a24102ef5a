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
    """Read back from the dev server: the real adapter started it under the id the API answered."""
    workflow_id = world.response.json()["workflowId"]
    execution = world.temporal.find(workflow_id)
    assert execution is not None, workflow_id
    assert execution.workflow_type == "JobPreparationWorkflow" and execution.status == "RUNNING"
    assert execution.input["job_id"] == job and execution.input["steps"][0] == "score", execution.input
