"""Kernel errors → Temporal ``ApplicationError``: ``type`` is the error code and ``non_retryable`` comes
from the class flag, so Temporal's retry decision is the taxonomy's decision."""

from __future__ import annotations

from temporalio.exceptions import ApplicationError

from jobctrl.kernel.errors import classify
from jobctrl.kernel.text import bound_text

MESSAGE_LIMIT = 500


def to_application_error(exc: BaseException) -> ApplicationError:
    if isinstance(exc, ApplicationError):
        return exc
    code, retryable = classify(exc)
    return ApplicationError(bound_text(str(exc), MESSAGE_LIMIT), type=code, non_retryable=not retryable)
