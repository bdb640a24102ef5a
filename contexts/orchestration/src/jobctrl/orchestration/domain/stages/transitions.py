"""The stage transition table: exactly the reference's 16 (from kind, trigger) rows.

``transition`` is pure.  Any pair not in the table raises ``TransitionRejected`` carrying the current
state, the attempted trigger and a reason; the JobStages aggregate calls it for every write, so no
writer can bypass it.  Attempt counting follows the reference: Pending→Running increments,
Failed→Pending keeps the count unless ``resetAttempts``, Exhausted→Pending resets to 0, Queued→Running
takes the count it is given (default 1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.orchestration.domain.stages.states import (
    Blocked,
    Canceled,
    Exhausted,
    Failed,
    Pending,
    Queued,
    Running,
    Skipped,
    StageOwner,
    StageState,
    Stale,
    Succeeded,
    Trigger,
    kind_of,
)


class TransitionInputs(msgspec.Struct, frozen=True, kw_only=True, rename="camel", forbid_unknown_fields=True):
    """Optional values a trigger may use; unknown keys are refused, not ignored."""

    queued_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None
    canceled_at: str | None = None
    attempt_count: Annotated[int, msgspec.Meta(ge=0)] | None = None
    max_attempts: Annotated[int, msgspec.Meta(ge=0)] | None = None
    duration_ms: Annotated[int, msgspec.Meta(ge=0)] | None = None
    error_code: str | None = None
    error_message: str | None = None
    retryable: bool | None = None
    next_action: str | None = None
    reason: str | None = None
    reset_attempts: bool | None = None
    blocked_by: tuple[str, ...] | None = None
    owner: StageOwner | None = None
    baseline_version: int | None = None


class TransitionRejected(JobCtrlError):
    """The trigger is not allowed from the current state kind."""

    code = "transition_rejected"
    retryable = False

    def __init__(self, state: StageState, trigger: Trigger, reason: str) -> None:
        super().__init__(reason)
        self.state = state
        self.trigger = trigger
        self.reason = reason


_Handler = Callable[[Any, TransitionInputs], StageState]


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


_TABLE: dict[tuple[str, Trigger], _Handler] = {
    # 1 Pending -> Queued
    ("Pending", Trigger.ENQUEUE): lambda s, i: Queued(queued_at=_or(i.queued_at, "")),
    # 2 Pending -> Running: the attempt count grows by one
    ("Pending", Trigger.START): lambda s, i: Running(
        attempt_count=s.attempt_count + 1,
        started_at=_or(i.started_at, ""),
        owner=i.owner,
        baseline_version=i.baseline_version,
    ),
    # 3 Pending -> Blocked
    ("Pending", Trigger.BLOCK): lambda s, i: Blocked(
        blocked_by=_or(i.blocked_by, ()),
        error_code=_or(i.error_code, "BLOCKED_UPSTREAM"),
        error_message=_or(i.error_message, ""),
    ),
    # 4 Pending -> Skipped
    ("Pending", Trigger.SKIP): lambda s, i: Skipped(reason=_or(i.reason, "")),
    # 5 Queued -> Running
    ("Queued", Trigger.START): lambda s, i: Running(
        attempt_count=_or(i.attempt_count, 1),
        started_at=_or(i.started_at, ""),
        owner=i.owner,
        baseline_version=i.baseline_version,
    ),
    # 6 Queued -> Canceled
    ("Queued", Trigger.CANCEL): lambda s, i: Canceled(canceled_at=_or(i.canceled_at, ""), reason=i.reason),
    # 7 Running -> Succeeded
    ("Running", Trigger.COMPLETE): lambda s, i: Succeeded(
        attempt_count=s.attempt_count, finished_at=_or(i.finished_at, ""), duration_ms=_or(i.duration_ms, 0)
    ),
    # 8 Running -> Failed
    ("Running", Trigger.FAIL): lambda s, i: Failed(
        attempt_count=s.attempt_count,
        max_attempts=_or(i.max_attempts, 0),
        error_code=_or(i.error_code, ""),
        error_message=_or(i.error_message, ""),
        retryable=_or(i.retryable, True),
        next_action=i.next_action,
    ),
    # 9 Running -> Canceled
    ("Running", Trigger.CANCEL): lambda s, i: Canceled(canceled_at=_or(i.canceled_at, ""), reason=i.reason),
    # 10 Failed -> Pending: the count is kept unless the reset asks to clear it
    ("Failed", Trigger.RESET): lambda s, i: Pending(
        attempt_count=0 if i.reset_attempts else s.attempt_count,
        max_attempts=s.max_attempts,
        next_action=i.next_action,
    ),
    # 11 Failed -> Exhausted
    ("Failed", Trigger.EXHAUST): lambda s, i: Exhausted(
        attempt_count=s.attempt_count,
        max_attempts=s.max_attempts,
        error_code=_or(i.error_code, s.error_code),
        error_message=_or(i.error_message, s.error_message),
        next_action=i.next_action,
    ),
    # 12 Blocked -> Pending
    ("Blocked", Trigger.UNBLOCK): lambda s, i: Pending(
        attempt_count=_or(i.attempt_count, 0), max_attempts=_or(i.max_attempts, 0), next_action=i.next_action
    ),
    # 13 Exhausted -> Pending: always back to zero attempts
    ("Exhausted", Trigger.RESET): lambda s, i: Pending(
        attempt_count=0, max_attempts=s.max_attempts, next_action=i.next_action
    ),
    # 14 Canceled -> Pending
    ("Canceled", Trigger.RESET): lambda s, i: Pending(
        attempt_count=_or(i.attempt_count, 0), max_attempts=_or(i.max_attempts, 0), next_action=i.next_action
    ),
    # 15 Succeeded -> Stale
    ("Succeeded", Trigger.MARK_STALE): lambda s, i: Stale(reason=_or(i.reason, "")),
    # 16 Stale -> Pending
    ("Stale", Trigger.RESET): lambda s, i: Pending(
        attempt_count=_or(i.attempt_count, 0), max_attempts=_or(i.max_attempts, 0), next_action=i.next_action
    ),
}

VALID_TRANSITIONS: frozenset[tuple[str, Trigger]] = frozenset(_TABLE)
assert len(VALID_TRANSITIONS) == 16


def transition(current: StageState, trigger: Trigger, inputs: TransitionInputs | None = None) -> StageState:
    handler = _TABLE.get((kind_of(current), trigger))
    if handler is None:
        raise TransitionRejected(
            current, trigger, f"Transition {trigger.value} is not allowed from {kind_of(current)}"
        )
    return handler(current, inputs or TransitionInputs())


def is_allowed(current: StageState, trigger: Trigger) -> bool:
    return (kind_of(current), trigger) in _TABLE
