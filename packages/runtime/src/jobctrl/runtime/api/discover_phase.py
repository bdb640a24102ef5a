"""The Discover execution phase and the cancel rule, from durable read models only.

Phase (operations spec): ``discovering`` until the terminal ``preparation_fanout`` step closes
membership, then ``draining``.  A succeeded run stays ``draining`` while any of its pipeline steps is
still queued or running, becomes ``completed_with_issues`` when a step failed, else ``completed``.
``failed`` / ``timed_out`` / ``terminated`` map to ``failed``; ``canceled`` to ``canceled``.  A
provisional ``reconciled_not_found`` verdict has no known phase (``None``).

Cancel rule: only a Discover run whose workflow status is ``in_progress`` AND whose phase is
discovering or draining; a closed run whose durable phase still says draining is not cancelable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from jobctrl.orchestration.workflows.discover import WORKFLOW_TYPE

DISCOVER_WORKFLOW_TYPE = WORKFLOW_TYPE

Phase = Literal["discovering", "draining", "completed", "completed_with_issues", "failed", "canceled"]
CANCELABLE_PHASES: frozenset[Phase] = frozenset({"discovering", "draining"})
RECONCILED_NOT_FOUND = "reconciled_not_found"


def discover_phase(status: str, error_code: str | None, steps: Iterable[tuple[str, str]]) -> Phase | None:
    """``steps`` are this exact run's (step kind, step status) pairs from pipeline_step_projections."""
    step_list = list(steps)
    if status == "in_progress":
        closed = any(kind == "preparation_fanout" and s in ("succeeded", "failed") for kind, s in step_list)
        return "draining" if closed else "discovering"
    if status == "succeeded":
        if any(s in ("queued", "running") for _, s in step_list):
            return "draining"
        return "completed_with_issues" if any(s == "failed" for _, s in step_list) else "completed"
    if status == "canceled":
        return "canceled"
    if status == "terminated" and error_code == RECONCILED_NOT_FOUND:
        return None  # provisional: the reconciler is still probing the exact run
    return "failed"


def is_cancelable(workflow_type: str, status: str, phase: Phase | None) -> bool:
    return workflow_type == DISCOVER_WORKFLOW_TYPE and status == "in_progress" and phase in CANCELABLE_PHASES
