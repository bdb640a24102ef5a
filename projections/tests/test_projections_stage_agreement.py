"""job_stage_states agrees with the orchestration's own fold of the same stage events.

Random valid histories are produced by driving the JobStages aggregate with random commands (a
command its transition table refuses records nothing and is dropped), so every history is one the
aggregate could have written.  The events are folded both ways — the aggregate's
``fold_job_stages`` and the projection's pure folds, through a JSON round trip as the runner would
see them — and every field the aggregate's state kind carries must match the projection row.
"""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from jobctrl.domain_types import registry
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.stages import STAGES
from jobctrl.orchestration.domain.stages import states as kinds
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.fold import fold_job_stages
from jobctrl.orchestration.domain.stages.states import StageOwner, StageState
from jobctrl.orchestration.events import Stage, StageBlocked, StageStarted
from jobctrl.projections.model import EventInfo
from jobctrl.projections.read_models.stage_states import PROJECTION, StageStateRow

_FOLDS = {f.event.event_type: f for f in PROJECTION.folds}
_OWNERS = (StageOwner("prepare-1", "run-a", 1), StageOwner("prepare-1", "run-b", 2))
COMMANDS = ("enqueue", "start", "complete", "fail", "reset", "block", "unblock", "skip", "cancel", "stale")


def _at(n: int) -> str:
    return f"2026-03-01T09:{n // 60 % 60:02d}:{n % 60:02d}.000Z"


def _run(stages: JobStages, step: tuple[str, int, int, bool], n: int) -> None:
    command, stage_i, owner_i, flag = step
    stage: Stage = STAGES[stage_i]
    owner = _OWNERS[owner_i]
    at = _at(n)
    if command == "enqueue":
        stages.enqueue(stage, at=at)
    elif command == "start":
        stages.start(stage, at=at, owner=owner, baseline_version=n if flag else None)
    elif command == "complete":
        stages.complete(stage, at=at, duration_ms=n * 7, owner=owner)
    elif command == "fail":
        stages.fail(
            stage, error_code=f"E_{n}", error_message=f"failure {n}", retryable=flag, at=at, owner=owner
        )
    elif command == "reset":
        stages.reset(stage, at=at, reset_attempts=flag)
    elif command == "block":
        stages.block(
            stage, blocked_by=["tailor", "enrich"] if flag else ["score"], error_code="B_X", error_message="b"
        )
    elif command == "unblock":
        stages.unblock(stage, at=at)
    elif command == "skip":
        stages.skip(stage, reason=f"skip {n}")
    elif command == "cancel":
        stages.cancel(stage, at=at, reason="stop" if flag else None)
    else:
        stages.mark_stale(stage, reason="PROFILE_CHANGED", at=at)


def history(steps: list[tuple[str, int, int, bool]]) -> list[DomainEvent]:
    stages = JobStages("job-1")
    for n, step in enumerate(steps, start=1):
        try:
            _run(stages, step, n)
        except JobCtrlError:
            continue  # refused by the table or the owner fence: nothing was recorded
    return list(stages.pending_events)


def project(events: list[DomainEvent]) -> dict[str, StageStateRow]:
    rows: dict[Any, Any] = {}
    for position, event in enumerate(events, start=1):
        # the runner sees the wire form: decode the JSON payload back into the event class
        wire = msgspec.json.decode(msgspec.json.encode(event), type=type(event))
        info = EventInfo.of(position, event.event_type, "local", _at(position), b"{}")
        fold = _FOLDS[event.event_type]
        key = fold.key(wire, info)
        after = fold.apply(rows.get(key), wire, info)
        if after is not None:
            rows[key] = after
    return {key[2]: row for key, row in rows.items()}


def expected(state: StageState) -> dict[str, Any]:
    """The fields each state kind carries, under the projection's column names."""
    match state:
        case kinds.Pending():
            return {"state": "pending", "attempts": state.attempt_count, "max_attempts": state.max_attempts}
        case kinds.Queued():
            return {"state": "queued", "queued_at": state.queued_at}
        case kinds.Running():
            owner = state.owner
            return {
                "state": "running",
                "attempts": state.attempt_count,
                "started_at": state.started_at,
                "owner_workflow_id": owner.workflow_id if owner else None,
                "owner_run_id": owner.temporal_run_id if owner else None,
                "owner_attempt": owner.attempt if owner else None,
                "baseline_version": state.baseline_version,
            }
        case kinds.Succeeded():
            return {
                "state": "succeeded",
                "attempts": state.attempt_count,
                "finished_at": state.finished_at,
                "duration_ms": state.duration_ms,
            }
        case kinds.Failed():
            return {
                "state": "failed",
                "attempts": state.attempt_count,
                "max_attempts": state.max_attempts,
                "error_code": state.error_code,
                "error_message": state.error_message,
                "retryable": state.retryable,
            }
        case kinds.Blocked():
            return {
                "state": "blocked",
                "blocked_by_json": msgspec.json.encode(list(state.blocked_by)).decode(),
                "error_code": state.error_code,
                "error_message": state.error_message,
            }
        case kinds.Skipped():
            return {"state": "skipped", "reason": state.reason}
        case kinds.Exhausted():
            return {
                "state": "exhausted",
                "attempts": state.attempt_count,
                "max_attempts": state.max_attempts,
                "error_code": state.error_code,
                "error_message": state.error_message,
            }
        case kinds.Stale():
            return {"state": "stale", "reason": state.reason}
        case kinds.Canceled():
            return {"state": "canceled", "finished_at": state.canceled_at, "reason": state.reason}
    raise AssertionError(f"unexpected state {state!r}")


def agree(events: list[DomainEvent]) -> None:
    folded = fold_job_stages("job-1", events)
    rows = project(events)
    assert set(rows) == set(folded), "both folds have a row for exactly the stages the events touch"
    for stage, state in folded.items():
        want = expected(state)
        got = {name: getattr(rows[stage], name) for name in want}
        assert got == want, f"{stage}: projection {got} != orchestration {want}"


_step = st.tuples(
    st.sampled_from(COMMANDS),
    st.integers(0, len(STAGES) - 1),
    st.integers(0, len(_OWNERS) - 1),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_step, max_size=60))
def test_random_valid_stage_histories_fold_the_same_both_ways(
    steps: list[tuple[str, int, int, bool]],
) -> None:
    agree(history(steps))


def test_a_long_tailor_story_covers_every_stage_event_type() -> None:
    """Fails, exhaustion with re-blocked dependents, resets, unblocks, queueing, staleness and
    cancellation: a fixed history that must use every fold, so the property test is not vacuous."""
    owner = _OWNERS[0]
    stages = JobStages("job-1")
    stages.enqueue("enrich", at=_at(1))
    stages.start("enrich", at=_at(2))
    stages.complete("enrich", at=_at(3), duration_ms=5)
    stages.mark_stale("enrich", reason="PROFILE_CHANGED", at=_at(4))
    stages.reset("enrich", at=_at(5))
    for n in range(5):
        stages.start("tailor", at=_at(10 + n), owner=owner)
        stages.fail(
            "tailor", error_code="E", error_message="boom", retryable=True, at=_at(20 + n), owner=owner
        )
        if n < 4:
            stages.reset("tailor", at=_at(30 + n))
    stages.reset("tailor", at=_at(40))  # from Exhausted: back to zero attempts
    stages.start("tailor", at=_at(41), owner=_OWNERS[1])
    stages.complete("tailor", at=_at(42), duration_ms=9, owner=_OWNERS[1])  # unblocks cover and apply
    stages.enqueue("apply", at=_at(43))
    stages.cancel("apply", at=_at(44), reason="user")
    stages.skip("cover", reason="no cover letter wanted")
    events = list(stages.pending_events)
    assert {e.event_type for e in events} == set(_FOLDS)
    agree(events)
    rows = project(events)
    assert (rows["tailor"].state, rows["tailor"].attempts) == ("succeeded", 1)
    assert rows["apply"].state == "canceled" and rows["apply"].next_action == "reset_required"


def test_v1_events_upcast_then_fold_like_v2() -> None:
    """A v1 StageBlocked has no code (the upcaster supplies BLOCKED_UPSTREAM); a v1 StageStarted has
    no owner, so the projection takes it from the metadata."""
    reg = registry()
    blocked = reg.decode_payload(
        "StageBlocked", b'{"jobId":"job-1","stage":"cover","blockedBy":["tailor"]}', 1, 1
    )
    started = reg.decode_payload(
        "StageStarted",
        b'{"jobId":"job-1","stage":"enrich","attemptNumber":1,"startedAt":"2026-03-01T09:00:01Z"}',
        1,
        2,
    )
    # each is upcast to today's class
    assert isinstance(blocked, StageBlocked) and isinstance(started, StageStarted)
    meta = b'{"eventId":"e1","workflowId":"wf","runId":"r1","attempt":2}'
    rows: dict[Any, Any] = {}
    upcast: tuple[StageBlocked | StageStarted, ...] = (blocked, started)
    for n, event in enumerate(upcast, start=1):
        fold = _FOLDS[event.event_type]
        info = EventInfo.of(n, event.event_type, "local", _at(n), meta)
        rows[event.stage] = fold.apply(None, event, info)
    assert rows["cover"].error_code == "BLOCKED_UPSTREAM" and rows["cover"].blocked_by_json == '["tailor"]'
    assert (rows["enrich"].owner_workflow_id, rows["enrich"].owner_run_id, rows["enrich"].owner_attempt) == (
        "wf",
        "r1",
        2,
    )
    assert rows["enrich"].started_at == "2026-03-01T09:00:01.000Z"
