"""The describe-based reconciler's decisions, as pure functions the Temporal runtime calls.

The runtime describes the exact recorded workflow/run and hands the result here; ``decide`` says
what to append, and ``apply_decision`` records it on the loaded ``WorkflowRun`` (whose save is the
compare-and-swap: a terminal status recorded meanwhile makes the save conflict, never overwrite).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from jobctrl.orchestration.runs.aggregate import WorkflowRun
from jobctrl.orchestration.runs.outcomes import RECONCILED_NOT_FOUND, RunOutcome


class DescribedStatus(StrEnum):
    """Temporal's execution status as seen by describe (plus NOT_FOUND)."""

    RUNNING = "RUNNING"
    CONTINUED_AS_NEW = "CONTINUED_AS_NEW"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELED = "CANCELED"
    TERMINATED = "TERMINATED"
    TIMED_OUT = "TIMED_OUT"
    NOT_FOUND = "NOT_FOUND"


_CLOSED: dict[DescribedStatus, tuple[RunOutcome, str | None]] = {
    DescribedStatus.COMPLETED: (RunOutcome.SUCCEEDED, None),
    DescribedStatus.FAILED: (RunOutcome.FAILED, "reconciled_closed_failed"),
    DescribedStatus.CANCELED: (RunOutcome.CANCELED, "reconciled_closed_canceled"),
    DescribedStatus.TIMED_OUT: (RunOutcome.TIMED_OUT, "reconciled_closed_timed_out"),
    DescribedStatus.TERMINATED: (RunOutcome.TERMINATED, "reconciled_terminated"),
}


@dataclass(frozen=True)
class Decision:
    """``recover``: append a recovered start first; ``close``: then settle with this outcome/code."""

    recover: bool = False
    close: RunOutcome | None = None
    error_code: str | None = None

    @property
    def is_noop(self) -> bool:
        return not self.recover and self.close is None


LEAVE = Decision()


def decide(*, is_open: bool, provisional: bool, described: DescribedStatus) -> Decision:
    if provisional:
        # The run we could not find earlier is visible again: recover it, then settle as usual.
        if described is DescribedStatus.NOT_FOUND:
            return LEAVE  # still missing: keep the provisional verdict and keep probing
        after = decide(is_open=True, provisional=False, described=described)
        return Decision(recover=True, close=after.close, error_code=after.error_code)
    if not is_open:
        return LEAVE  # never overwrite a terminal status
    if described in (DescribedStatus.RUNNING, DescribedStatus.CONTINUED_AS_NEW):
        return LEAVE
    if described is DescribedStatus.NOT_FOUND:
        return Decision(close=RunOutcome.TERMINATED, error_code=RECONCILED_NOT_FOUND)
    outcome, code = _CLOSED[described]
    return Decision(close=outcome, error_code=code)


def reconcile_run(run: WorkflowRun, described: DescribedStatus, *, at: str) -> Decision:
    """Decide for ``run`` and record the decision on it (the caller saves)."""
    decision = decide(is_open=run.is_open, provisional=run.provisional, described=described)
    assert run.run_id is not None or decision.is_noop
    if decision.recover and run.run_id is not None:
        run.start(
            workflow_type=run.workflow_type,
            temporal_run_id=run.run_id,
            started_at=run.started_at or at,
            recovered_from_missing_history=True,
        )
    if decision.close is not None and run.run_id is not None:
        run.close(decision.close, temporal_run_id=run.run_id, finished_at=at, error_code=decision.error_code)
    return decision
