"""Typed errors of the politeness gateway.

Each is a ``JobCtrlError`` with a stable code.  Refusals decided by policy (robots, budget, unsafe
destination) are not retryable: retrying the same request under the same policy cannot succeed.
Network trouble maps onto the kernel's retryable ``TransientNetworkError`` / ``SourceUnavailableError``.
"""

from __future__ import annotations

from jobctrl.kernel.errors import JobCtrlError, SourceUnavailableError, TransientNetworkError

__all__ = [
    "RequestBudgetExhausted",
    "ResponseTooLarge",
    "RobotsDisallowed",
    "SourceUnavailableError",
    "TooManyRedirects",
    "TransientNetworkError",
    "UnsafeDestination",
]


class RobotsDisallowed(JobCtrlError):
    """robots.txt (or a fail-closed robots verdict) forbids the request."""

    code = "robots_disallowed"
    retryable = False


class RequestBudgetExhausted(JobCtrlError):
    """The run's request budget for this policy is spent."""

    code = "request_budget_exhausted"
    retryable = False


class UnsafeDestination(JobCtrlError):
    """The URL points at a private, loopback, link-local or metadata address (or is not http/https)."""

    code = "unsafe_destination"
    retryable = False


class TooManyRedirects(SourceUnavailableError):
    """More redirects than the policy allows; keeps the ``source_unavailable`` code."""


class ResponseTooLarge(SourceUnavailableError):
    """The body exceeded the policy's byte cap; nothing of it is returned."""
