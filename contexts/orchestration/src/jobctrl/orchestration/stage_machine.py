"""JSON-shaped adapter over the stage transition table, for interop tests with the reference.

``apply_trigger({"kind": "Pending", "attemptCount": 1, "maxAttempts": 5}, "Start", {"startedAt": t})``
returns ``{"kind": "Running", "attemptCount": 2, "startedAt": t}``; a trigger the table does not allow
returns ``{"kind": "TransitionRejected", "currentState": ..., "attemptedTransition": ..., "reason": ...}``.
A malformed state, an unknown trigger or an unknown input key raises ``InvalidStageInput``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.orchestration.domain.stages.states import StageState, Trigger
from jobctrl.orchestration.domain.stages.transitions import TransitionInputs, TransitionRejected, transition


class InvalidStageInput(JobCtrlError):
    code = "invalid_stage_input"
    retryable = False


def _state_from(value: dict[str, Any]) -> StageState:
    try:
        state: StageState = msgspec.convert(value, StageState)
    except msgspec.ValidationError as exc:
        raise InvalidStageInput(f"invalid stage state: {exc}") from None
    return state


def _as_dict(state: StageState) -> dict[str, Any]:
    # Through JSON so tuples become lists, exactly as the reference's JSON shape.
    result: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(state))
    return result


def apply_trigger(
    state: dict[str, Any], trigger: str, inputs: dict[str, Any] | None = None
) -> dict[str, Any]:
    current = _state_from(state)
    try:
        chosen = Trigger(trigger)
    except ValueError:
        raise InvalidStageInput(f"unknown trigger {trigger[:40]!r}") from None
    try:
        parsed = msgspec.convert(inputs or {}, TransitionInputs)
    except msgspec.ValidationError as exc:
        raise InvalidStageInput(f"invalid transition inputs: {exc}") from None
    try:
        return _as_dict(transition(current, chosen, parsed))
    except TransitionRejected as rejected:
        return {
            "kind": "TransitionRejected",
            "currentState": _as_dict(rejected.state),
            "attemptedTransition": rejected.trigger.value,
            "reason": rejected.reason,
        }
