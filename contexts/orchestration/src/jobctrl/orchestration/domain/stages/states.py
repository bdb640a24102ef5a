"""The stage state kinds, in the reference's JSON shape (``{"kind": "Running", "attemptCount": 2}``).

Each kind is a tagged msgspec Struct, so decoding a state dict validates it (unknown kinds and wrong
field types are refused) and encoding omits absent optionals exactly like the reference.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, get_args

import msgspec

Code = Annotated[str, msgspec.Meta(max_length=80)]
Text = Annotated[str, msgspec.Meta(max_length=500)]


class StageOwner(msgspec.Struct, frozen=True, rename="camel"):
    """Who may write a running row: one Temporal activity attempt of one workflow run."""

    workflow_id: str
    temporal_run_id: str
    attempt: Annotated[int, msgspec.Meta(ge=1)]


class _State(msgspec.Struct, frozen=True, kw_only=True, rename="camel", omit_defaults=True, tag_field="kind"):
    pass


class Pending(_State, frozen=True, tag="Pending"):
    attempt_count: int
    max_attempts: int
    next_action: Text | None = None


class Queued(_State, frozen=True, tag="Queued"):
    queued_at: str


class Running(_State, frozen=True, tag="Running"):
    attempt_count: int
    started_at: str
    # Our additions (absent in reference rows): the owner of every running write and the score
    # version / material generation that existed before a rescore/retailor run.
    owner: StageOwner | None = None
    baseline_version: int | None = None


class Succeeded(_State, frozen=True, tag="Succeeded"):
    attempt_count: int
    finished_at: str
    duration_ms: int


class Failed(_State, frozen=True, tag="Failed"):
    attempt_count: int
    max_attempts: int
    error_code: Code
    error_message: Text
    retryable: bool
    next_action: Text | None = None


class Blocked(_State, frozen=True, tag="Blocked"):
    blocked_by: tuple[str, ...]
    error_code: Code
    error_message: Text


class Skipped(_State, frozen=True, tag="Skipped"):
    reason: Text


class Exhausted(_State, frozen=True, tag="Exhausted"):
    attempt_count: int
    max_attempts: int
    error_code: Code
    error_message: Text
    next_action: Text | None = None


class Stale(_State, frozen=True, tag="Stale"):
    reason: Text


class Canceled(_State, frozen=True, tag="Canceled"):
    canceled_at: str
    reason: Text | None = None


class NeedsVerification(_State, frozen=True, tag="NeedsVerification"):
    """A side effect may have happened without a recorded result (an apply submit intent with no
    outcome).  No trigger leaves it: only a human verification outside the machine settles it, so
    nothing is ever re-sent automatically (ADR 0025)."""

    reason: Text


StageState = (
    Pending
    | Queued
    | Running
    | Succeeded
    | Failed
    | Blocked
    | Skipped
    | Exhausted
    | Stale
    | Canceled
    | NeedsVerification
)
#: every kind, in the union's order (the union is the one list of them)
STATE_KINDS: tuple[type[_State], ...] = get_args(StageState)


class Trigger(StrEnum):
    ENQUEUE = "Enqueue"
    START = "Start"
    COMPLETE = "Complete"
    FAIL = "Fail"
    BLOCK = "Block"
    SKIP = "Skip"
    RESET = "Reset"
    CANCEL = "Cancel"
    EXHAUST = "Exhaust"
    UNBLOCK = "Unblock"
    MARK_STALE = "MarkStale"


def kind_of(state: StageState) -> str:
    return type(state).__struct_config__.tag  # type: ignore[return-value]
