"""Named retry policies and activity options (runtime reference §1.3).

``configuration``, ``authentication``, ``missing_input`` and ``budget_exceeded`` never retry; the
activities also mark them ``non_retryable`` by class flag, the list here is the second line.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio.common import RetryPolicy

NON_RETRYABLE: list[str] = ["configuration", "authentication", "missing_input", "budget_exceeded"]


def _policy(initial_s: float, max_s: float, attempts: int) -> RetryPolicy:
    return RetryPolicy(
        initial_interval=timedelta(seconds=initial_s),
        backoff_coefficient=2.0,
        maximum_interval=timedelta(seconds=max_s),
        maximum_attempts=attempts,
        non_retryable_error_types=list(NON_RETRYABLE),
    )


SRC = _policy(5, 60, 3)
ENR = SRC
SCORE = SRC
TAIL = _policy(10, 120, 3)
COVER = TAIL
#: The spend preflight.  A depleted budget fails at its first attempt (``budget_exceeded`` is
#: non-retryable), so there is no retry storm; an attempt lost to a killed worker or server (a
#: StartToClose timeout of a read-only check) is retried, or a crash would fail the job (ADR 0250).
PREFLIGHT = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=10),
    maximum_attempts=3,
    non_retryable_error_types=list(NON_RETRYABLE),
)
LIFECYCLE = RetryPolicy(
    initial_interval=timedelta(seconds=1), maximum_interval=timedelta(seconds=10), maximum_attempts=5
)
#: A preparation's opening (ADR 0391): the started record, the gate and the checkpoint read in one
#: activity.  LIFECYCLE's attempts (each part may run again: the record is idempotent, the rest read
#: only) and the gate's non-retryable codes, so a depleted budget still fails at the first attempt.
OPEN = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=10),
    maximum_attempts=5,
    non_retryable_error_types=list(NON_RETRYABLE),
)
#: Owner-scoped recovery must happen before a terminal outcome: 0 means retry until it succeeds.
RECOVER = RetryPolicy(
    initial_interval=timedelta(seconds=1), maximum_interval=timedelta(seconds=10), maximum_attempts=0
)
APPLY_LIVE = RetryPolicy(maximum_attempts=1)
# Settling a failed live attempt's run (ADR 0164): bounded, so a worker without the activity ends.
APPLY_RECOVER = RetryPolicy(
    initial_interval=timedelta(seconds=1), maximum_interval=timedelta(seconds=10), maximum_attempts=5
)
APPLY_DRY_RUN = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=2,
    non_retryable_error_types=list(NON_RETRYABLE),
)

SHORT = timedelta(seconds=30)
HALF_HOUR = timedelta(minutes=30)
SIX_HOURS = timedelta(hours=6)
HEARTBEAT = timedelta(minutes=2)


def heartbeat(seconds: float) -> timedelta:
    """The heartbeat timeout a run was started with (0: the default).  Only a test of worker crashes
    shortens it, so a killed worker's activities are retried in seconds rather than minutes."""
    return timedelta(seconds=seconds) if seconds > 0 else HEARTBEAT


APPLY_HEARTBEAT = timedelta(seconds=60)
