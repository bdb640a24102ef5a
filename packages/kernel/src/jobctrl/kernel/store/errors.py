"""Typed store errors.  None of them is retryable as-is: the caller must re-read and decide."""

from __future__ import annotations

from eventsourcing.persistence import IntegrityError

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.registry import EventValidationError


class ConcurrencyConflict(JobCtrlError, IntegrityError):
    """The stream moved on since the caller read it (optimistic concurrency).

    Also the ``eventsourcing`` library's ``IntegrityError``, which is how its ``Application.save``
    reports a version clash, so code written against either API catches it."""

    code = "concurrency_conflict"
    retryable = False

    def __init__(self, stream_id: str, expected: int | None, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class IdempotencyConflict(JobCtrlError):
    """Some, but not all, event ids of a batch are already stored: the retry is not the same batch."""

    code = "idempotency_conflict"
    retryable = False


class PayloadTooLarge(EventValidationError):
    def __init__(self, event_type: str, size: int, limit: int) -> None:
        super().__init__(event_type, f"payload is {size} bytes, over the {limit}-byte limit")
        self.size = size
        self.limit = limit


class IdTooLong(EventValidationError):
    """An id (stream, event, event type, tenant, job) or timestamp is longer than its column.

    PostgreSQL refuses such a value with a driver error and SQLite would store it silently, so the
    store checks every one itself, before any SQL, on both databases alike."""

    code = "id_too_long"

    def __init__(self, event_type: str, field: str, length: int, limit: int) -> None:
        super().__init__(event_type, f"{field} is {length} characters, over the {limit}-character limit")
        self.field = field
        self.length = length
        self.limit = limit
