"""Step definitions for features/materials/attempts.feature (shared steps: conftest.py)."""

from __future__ import annotations

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.materials.domain.aggregate import RetailorKind
from jobctrl.materials.use_cases.request_retailor import RequestRetailor, request_retailor
from jobctrl.materials.use_cases.suppress_tailored_artifacts import (
    SuppressTailoredArtifacts,
    suppress_tailored_artifacts,
)

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("materials/attempts.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


def _retailor(world: World, request_id: str) -> bool:
    command = RequestRetailor(
        request_id=request_id,
        job_id=world.job_id,
        kind=RetailorKind.SINGLE_JOB,
        current_policy_version=2,
        latest_artifact_policy_version=1,
        reason="policy changed",
    )
    return request_retailor(command, store=world.store, clock=world.clock)


@given(parsers.parse('a retailor was requested as "{request_id}"'))
def retailor_requested(world: World, request_id: str) -> None:
    assert _retailor(world, request_id)


@when(parsers.parse('a retailor is requested as "{request_id}"'))
def request_again(world: World, request_id: str) -> None:
    world.act(lambda: _retailor(world, request_id))


@when(parsers.parse('the accepted resume is suppressed as "{reason}"'))
def suppress(world: World, reason: str) -> None:
    artifact_id = world.materials().resume_artifact_id
    assert artifact_id is not None
    command = SuppressTailoredArtifacts(
        world.job_id, (artifact_id,), reason, current_fit_score=4, score_threshold=7
    )
    world.act(lambda: suppress_tailored_artifacts(command, store=world.store, clock=world.clock))


@then("the job has no current resume")
def no_current(world: World) -> None:
    assert world.materials().resume_artifact_id is None
