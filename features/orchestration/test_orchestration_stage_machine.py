"""Steps for features/orchestration/stage_machine.feature (the JSON adapter over the table)."""

from __future__ import annotations

import json
from typing import Any

from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.orchestration.domain.stages.states import STATE_KINDS, Trigger
from jobctrl.orchestration.domain.stages.transitions import VALID_TRANSITIONS
from jobctrl.orchestration.stage_machine import apply_trigger

scenarios("orchestration/stage_machine.feature")


@given(parsers.parse("a stage in state {state}"), target_fixture="state")
def a_state(state: str) -> dict[str, Any]:
    return dict(json.loads(state))


@when(parsers.parse('the trigger "{trigger}" is applied with {inputs}'), target_fixture="result")
def applied(state: dict[str, Any], trigger: str, inputs: str) -> dict[str, Any]:
    return apply_trigger(state, trigger, json.loads(inputs))


@then(parsers.parse("the stage is in state {expected}"))
def in_state(result: dict[str, Any], expected: str) -> None:
    assert result == json.loads(expected)


@then(parsers.parse('the transition is rejected from {kind} by "{trigger}"'))
def rejected(result: dict[str, Any], state: dict[str, Any], kind: str, trigger: str) -> None:
    assert result["kind"] == "TransitionRejected"
    assert result["currentState"] == state and result["currentState"]["kind"] == kind
    assert result["attemptedTransition"] == trigger
    assert result["reason"] == f"Transition {trigger} is not allowed from {kind}"


@then("the transition table has 16 rows, 11 state kinds and 11 triggers")
def table_size() -> None:
    assert len(VALID_TRANSITIONS) == 16
    assert len(STATE_KINDS) == 11 and len(Trigger) == 11
