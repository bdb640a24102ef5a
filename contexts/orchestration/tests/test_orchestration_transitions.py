"""The transition table as a whole, and the aggregate's fold agreeing with its commands."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobctrl.domain_types import registry
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.stages import STAGES
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.fold import STAGE_EVENT_TYPES, fold_job_stages
from jobctrl.orchestration.domain.stages.states import STATE_KINDS, StageOwner, StageState, Trigger, kind_of
from jobctrl.orchestration.domain.stages.transitions import TransitionRejected, is_allowed, transition
from jobctrl.orchestration.events import StageBlocked, StageStarted
from jobctrl.orchestration.stage_machine import InvalidStageInput, apply_trigger

pytestmark = pytest.mark.domain

#: one state of each kind, in the reference's JSON shape (decoded, so each is validated)
SAMPLES: list[StageState] = msgspec.convert(
    [
        {"kind": "Pending", "attemptCount": 0, "maxAttempts": 3},
        {"kind": "Queued", "queuedAt": "t"},
        {"kind": "Running", "attemptCount": 1, "startedAt": "t"},
        {"kind": "Succeeded", "attemptCount": 1, "finishedAt": "t", "durationMs": 1},
        {"kind": "Failed", "attemptCount": 1, "maxAttempts": 3, "errorCode": "X", "errorMessage": "m",
         "retryable": True},
        {"kind": "Blocked", "blockedBy": ["tailor"], "errorCode": "B", "errorMessage": "m"},
        {"kind": "Skipped", "reason": "r"},
        {"kind": "Exhausted", "attemptCount": 3, "maxAttempts": 3, "errorCode": "X", "errorMessage": "m"},
        {"kind": "Stale", "reason": "r"},
        {"kind": "Canceled", "canceledAt": "t"},
        {"kind": "NeedsVerification", "reason": "r"},
    ],
    list[StageState],
)  # fmt: skip
#: the reference's sixteen transitions, as it lists them (from kind, trigger)
REFERENCE_TRANSITIONS = frozenset(
    {
        ("Pending", "Enqueue"), ("Pending", "Start"), ("Pending", "Block"), ("Pending", "Skip"),
        ("Queued", "Start"), ("Queued", "Cancel"),
        ("Running", "Complete"), ("Running", "Fail"), ("Running", "Cancel"),
        ("Failed", "Reset"), ("Failed", "Exhaust"),
        ("Blocked", "Unblock"), ("Exhausted", "Reset"), ("Canceled", "Reset"),
        ("Succeeded", "MarkStale"), ("Stale", "Reset"),
    }
)  # fmt: skip


def test_exactly_the_references_sixteen_of_the_121_pairs_are_allowed() -> None:
    assert {type(s) for s in SAMPLES} == set(STATE_KINDS) and len(Trigger) == 11
    allowed = {(kind_of(s), t.value) for s in SAMPLES for t in Trigger if is_allowed(s, t)}
    assert allowed == REFERENCE_TRANSITIONS
    for state in SAMPLES:
        for trigger in Trigger:
            if (kind_of(state), trigger.value) in REFERENCE_TRANSITIONS:
                transition(state, trigger)
            else:
                with pytest.raises(TransitionRejected) as caught:
                    transition(state, trigger)
                assert caught.value.state is state and caught.value.trigger is trigger


def test_nothing_leaves_needs_verification() -> None:
    needs_verification = next(s for s in SAMPLES if kind_of(s) == "NeedsVerification")
    assert not any(is_allowed(needs_verification, t) for t in Trigger)


@pytest.mark.parametrize(
    ("state", "trigger", "inputs"),
    [
        ({"kind": "Nope"}, "Start", {}),
        ({"kind": "Pending", "attemptCount": "two", "maxAttempts": 3}, "Start", {}),
        ({"kind": "Pending", "attemptCount": 0, "maxAttempts": 3}, "Launch", {}),
        ({"kind": "Pending", "attemptCount": 0, "maxAttempts": 3}, "Start", {"startedAtt": "t"}),
    ],
)
def test_malformed_json_input_is_a_typed_error(
    state: dict[str, Any], trigger: str, inputs: dict[str, Any]
) -> None:
    with pytest.raises(InvalidStageInput) as caught:
        apply_trigger(state, trigger, inputs)
    assert caught.value.code == "invalid_stage_input"


OWNER = StageOwner("wf", "run", 1)
COMMANDS = st.lists(
    st.tuples(
        st.sampled_from(
            ["start", "complete", "fail", "reset", "skip", "cancel", "stale", "enqueue", "block"]
        ),
        st.sampled_from(STAGES),
    ),
    max_size=30,
)


def _run(stages: JobStages, name: str, stage: Any) -> None:
    owner = OWNER if stage in ("score", "tailor", "cover") else None
    match name:
        case "start":
            stages.start(stage, at="t", owner=owner)
        case "complete":
            stages.complete(stage, at="t", duration_ms=1, owner=owner)
        case "fail":
            stages.fail(stage, error_code="X", error_message="m", retryable=True, at="t", owner=owner)
        case "reset":
            stages.reset(stage, at="t")
        case "skip":
            stages.skip(stage, reason="r")
        case "cancel":
            stages.cancel(stage, at="t")
        case "stale":
            stages.mark_stale(stage, reason="r", at="t")
        case "enqueue":
            stages.enqueue(stage, at="t")
        case _:
            stages.block(stage, blocked_by=["enrich"], error_code="B", error_message="m")


@settings(max_examples=150, deadline=None)
@given(COMMANDS)
def test_replaying_the_recorded_events_gives_the_same_state(commands: list[tuple[str, Any]]) -> None:
    """Whatever sequence is tried, refused commands record nothing and the fold agrees."""
    stages = JobStages("j")
    for name, stage in commands:
        before = len(stages.pending_events)
        try:
            _run(stages, name, stage)
        except JobCtrlError:
            assert len(stages.pending_events) == before
    replay = JobStages("j")
    for event in stages.pending_events:
        replay.apply(event)
    assert replay.states == stages.states


def test_reference_v1_stage_rows_upcast() -> None:
    reg = registry()
    started = reg.decode_payload(
        "StageStarted", b'{"jobId":"j","stage":"score","attemptNumber":1,"startedAt":"t"}', 1
    )
    assert isinstance(started, StageStarted) and started.owner is None
    blocked = reg.decode_payload("StageBlocked", b'{"jobId":"j","stage":"cover","blockedBy":["tailor"]}', 1)
    assert isinstance(blocked, StageBlocked) and blocked.error_code == "BLOCKED_UPSTREAM"


def test_the_fold_of_a_stream_matches_the_aggregate() -> None:
    stages = JobStages("j")
    stages.start("tailor", at="t", owner=OWNER)
    stages.fail("tailor", error_code="X", error_message="m", retryable=True, at="t", owner=OWNER)
    assert fold_job_stages("j", stages.pending_events) == stages.states
    assert "StageUnblocked" in STAGE_EVENT_TYPES and len(STAGE_EVENT_TYPES) == 11
