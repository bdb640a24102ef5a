"""The error taxonomy shared by every context.

Each error carries a stable ``code`` and a ``retryable`` flag.  Temporal activities map them to
``ApplicationError(type=code, non_retryable=not retryable)``; anything that is not a ``JobCtrlError``
is ``unclassified`` and retryable, so an unexpected bug is retried a bounded number of times rather
than silently swallowed.
"""

from __future__ import annotations

from typing import ClassVar


class JobCtrlError(Exception):
    """Base of every typed JobCtrl error."""

    code: ClassVar[str] = "unclassified"
    retryable: ClassVar[bool] = True

    def __init__(self, message: str = "") -> None:
        super().__init__(message or self.code)
        self.message = message or self.code


# -- non-retryable -------------------------------------------------------------------------------
class ConfigurationError(JobCtrlError):
    code = "configuration"
    retryable = False


class AuthenticationError(JobCtrlError):
    code = "authentication"
    retryable = False


class MissingInputError(JobCtrlError):
    code = "missing_input"
    retryable = False


class BudgetExceededError(JobCtrlError):
    code = "budget_exceeded"
    retryable = False


class AttemptBudgetExhaustedError(JobCtrlError):
    code = "attempt_budget_exhausted"
    retryable = False


# -- retryable -----------------------------------------------------------------------------------
class TransientNetworkError(JobCtrlError):
    code = "transient_network"
    retryable = True


class LlmTransientError(JobCtrlError):
    code = "llm_transient"
    retryable = True


class SourceUnavailableError(JobCtrlError):
    code = "source_unavailable"
    retryable = True


class StorageUnavailable(JobCtrlError):
    """The database this process opened is gone, replaced, read-only, full or unreachable (ADR 0102).

    ``reason`` is one of ``missing``, ``replaced``, ``read_only``, ``disk_full``, ``unreachable``.
    Retryable: storage that comes back (space freed, the server restarted) serves the retry."""

    code = "storage_unavailable"
    retryable = True
    REASONS: ClassVar[frozenset[str]] = frozenset(
        {"missing", "replaced", "read_only", "disk_full", "unreachable"}
    )

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason if reason in self.REASONS else "unreachable"


NON_RETRYABLE_CODES: frozenset[str] = frozenset(
    {"configuration", "authentication", "missing_input", "budget_exceeded", "attempt_budget_exhausted"}
)
RETRYABLE_CODES: frozenset[str] = frozenset(
    {"transient_network", "llm_transient", "source_unavailable", "storage_unavailable", "unclassified"}
)


def classify(exc: BaseException) -> tuple[str, bool]:
    """Return ``(code, retryable)`` for any exception; unknown exceptions are ``unclassified``."""
    if isinstance(exc, JobCtrlError):
        return exc.code, exc.retryable
    return "unclassified", True
