"""The Discover execution phase and the cancel rule, from durable read models only.

Phase (operations spec): ``discovering`` until the terminal ``preparation_fanout`` step (or the
recorded closing fact) closes membership, then ``draining``.  A succeeded run stays ``draining``
while any of its pipeline steps is still queued or running or either cohort still has unresolved
work; it becomes ``completed_with_issues`` when a step failed, a plan failed or a required stage
was exhausted or canceled (not the Score row a not-eligible job settles, ADR 0071), else
``completed``.  ``failed`` / ``timed_out`` / ``terminated`` map to ``failed``; ``canceled`` to
``canceled``.  A provisional ``reconciled_not_found`` verdict has no known phase (``None``).

This is the one phase function: the workflow-run routes, the cancel rule and the operations
snapshot all call it with facts read by ``operations.execution.execution_facts`` (ADR 0131).

Cancel rule: only a Discover run whose workflow status is ``in_progress`` AND whose phase is
discovering or draining; a closed run whose durable phase still says draining is not cancelable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from jobctrl.orchestration import DISCOVER_WORKFLOW_TYPE as WORKFLOW_TYPE

DISCOVER_WORKFLOW_TYPE = WORKFLOW_TYPE

Phase = Literal["discovering", "draining", "completed", "completed_with_issues", "failed", "canceled"]
CANCELABLE_PHASES: frozenset[Phase] = frozenset({"discovering", "draining"})
RECONCILED_NOT_FOUND = "reconciled_not_found"


def discover_phase(
    status: str,
    error_code: str | None,
    steps: Iterable[tuple[str, str]],
    *,
    closed: bool = False,
    remaining: int = 0,
    issues: bool = False,
) -> Phase | None:
    """``steps`` are this exact run's (step kind, step status) pairs from pipeline_step_projections;
    ``closed`` the recorded membership-closing fact, ``remaining`` the members of both cohorts whose
    work is unresolved, ``issues`` whether a member's plan failed or a required stage ended badly."""
    step_list = list(steps)
    closed = closed or any(
        kind == "preparation_fanout" and s in ("succeeded", "failed") for kind, s in step_list
    )
    if status == "in_progress":
        return "draining" if closed else "discovering"  # closed: no new members, work runs out
    if status == "canceled":
        return "canceled"
    if status == "terminated" and error_code == RECONCILED_NOT_FOUND:
        return None  # provisional: the reconciler is still probing the exact run
    if status != "succeeded":
        return "failed"
    if remaining > 0 or any(s in ("queued", "running") for _, s in step_list):
        return "draining"
    if issues or any(s == "failed" for _, s in step_list):
        return "completed_with_issues"
    return "completed"


def is_cancelable(workflow_type: str, status: str, phase: Phase | None) -> bool:
    return workflow_type == DISCOVER_WORKFLOW_TYPE and status == "in_progress" and phase in CANCELABLE_PHASES
