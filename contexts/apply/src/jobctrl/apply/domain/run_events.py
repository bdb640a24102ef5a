"""Typed bodies of ``ApplyRunEventRecorded.event`` and ``ApplicationFailed.result``.

The wire fields are plain objects (the reference shape); inside JobCtrl they are always converted to
these tagged structs, so no rule ever inspects an untyped dict or compares free strings.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Coverage = Literal["full", "partial"]
NEEDS_VERIFICATION_CODE = "APPLY_NEEDS_VERIFICATION"


class DryRunCompleted(
    msgspec.Struct, frozen=True, kw_only=True, rename="camel", tag="dry_run_completed", tag_field="kind"
):
    """Evidence a dry run produced: what it filled, bound to the target it ran against."""

    coverage: Coverage
    materials_generation: int
    profile_version: int
    application_url: str
    filled: list[str]
    missing: list[str]
    blocked_attempts: int


VerificationCause = Literal[
    "intent_without_result", "email_send_outcome_ambiguous", "browser_submit_outcome_ambiguous"
]


class NeedsVerification(
    msgspec.Struct, frozen=True, kw_only=True, rename="camel", tag="needs_verification", tag_field="kind"
):
    """A submit was intended but no terminal result exists: a human must check; nothing is resent."""

    code: Literal["APPLY_NEEDS_VERIFICATION"] = "APPLY_NEEDS_VERIFICATION"
    cause: VerificationCause


class Answer(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    field: str
    value: str


class ManualCompletionPrepared(
    msgspec.Struct, frozen=True, kw_only=True, rename="camel", tag="needs_manual_completion", tag_field="kind"
):
    """A live browser run filled the form and stopped: the person finishes it (the hand-off).

    ``answers`` are the values the form was filled with (from the profile, never invented) and
    ``application_url`` the reviewed page, so ``jobctrl apply open`` can reopen it filled.
    """

    application_url: str
    answers: list[Answer]
    resume_pdf_path: str


RunEventBody = DryRunCompleted | NeedsVerification | ManualCompletionPrepared

FailureCode = Literal[
    "dry_run_violation",
    "apply_run_abandoned",
    "not_submitted_on_verification",
    "form_not_found",
    "page_unavailable",
]


class FailureResult(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    code: FailureCode
    retryable: bool


def encode_body(body: RunEventBody | FailureResult) -> dict[str, Any]:
    result: dict[str, Any] = msgspec.to_builtins(body)
    return result


def decode_run_event(raw: dict[str, Any]) -> RunEventBody:
    body: RunEventBody = msgspec.convert(raw, RunEventBody)
    return body


def decode_failure(raw: dict[str, Any]) -> FailureResult:
    return msgspec.convert(raw, FailureResult)
