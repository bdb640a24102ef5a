"""Kernel errors → Temporal ``ApplicationError`` and back.

``to_application_error`` is what activities raise: ``type`` is the error code and ``non_retryable``
comes from the class flag, so Temporal's retry decision is the taxonomy's decision.
``failure_of`` reads a code back out of whatever a workflow caught, without comparing message text.
"""

from __future__ import annotations

from dataclasses import dataclass

from temporalio.exceptions import ActivityError, ApplicationError, ChildWorkflowError, FailureError

from jobctrl.activity_contracts.errors import MESSAGE_LIMIT, to_application_error
from jobctrl.kernel.text import bound_text

__all__ = ["MESSAGE_LIMIT", "Failure", "failure_of", "to_application_error"]


@dataclass(frozen=True)
class Failure:
    code: str
    message: str
    retryable: bool


def failure_of(exc: BaseException) -> Failure:
    """The innermost ApplicationError's code, else ``unclassified``."""
    current: BaseException | None = exc
    while isinstance(current, (ActivityError, ChildWorkflowError)):
        current = current.cause
    if isinstance(current, ApplicationError):
        return Failure(
            code=current.type or "unclassified",
            message=bound_text(current.message, MESSAGE_LIMIT),
            retryable=not current.non_retryable,
        )
    if isinstance(current, FailureError):
        return Failure("unclassified", bound_text(current.message, MESSAGE_LIMIT), True)
    return Failure("unclassified", bound_text(type(exc).__name__, MESSAGE_LIMIT), True)
