"""The port through which a context activity records its job's stage transitions.

Contexts cannot import orchestration, which owns the stage machine (``JobStages``); an activity takes a
``StageTracker`` and the worker's composition root passes orchestration's implementation.  Usage::

    tracker = self.tracker.for_tenant(params.tenant_id)   # write under the workflow's tenant
    owner = owner_from_activity()
    if not tracker.begin(job_id, "score", owner):
        return already_done            # the stage already succeeded: never redo it
    try:
        ... the work ...
    except JobCtrlError as exc:
        tracker.fail(job_id, "score", owner, exc)
        raise
    tracker.succeed(job_id, "score", owner)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from temporalio import activity

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.stages import Stage


@dataclass(frozen=True)
class StepOwner:
    """Which workflow run (and which activity attempt) is doing the work."""

    workflow_id: str
    run_id: str
    attempt: int


def owner_from_activity() -> StepOwner:
    info = activity.info()
    return StepOwner(info.workflow_id or "", info.workflow_run_id or "", max(1, info.attempt))


class StageTracker(Protocol):
    def for_tenant(self, tenant_id: str) -> StageTracker:
        """The same tracker writing its stage events under ``tenant_id`` (the workflow's tenant)."""
        ...

    def begin(self, job_id: str, stage: Stage, owner: StepOwner) -> bool:
        """Start the stage (settling a row left running by an earlier attempt of the same workflow);
        False when the stage already succeeded and must not be redone."""
        ...

    def succeed(self, job_id: str, stage: Stage, owner: StepOwner) -> None: ...

    def fail(self, job_id: str, stage: Stage, owner: StepOwner, error: JobCtrlError) -> None: ...

    def skip(self, job_id: str, stage: Stage, reason: str) -> None: ...

    def succeeded(self, job_id: str, stage: Stage) -> bool: ...


class NoStageTracking:
    """For activities run outside a worker's composition (tests of one context): records nothing."""

    def for_tenant(self, tenant_id: str) -> NoStageTracking:
        return self

    def begin(self, job_id: str, stage: Stage, owner: StepOwner) -> bool:
        return True

    def succeed(self, job_id: str, stage: Stage, owner: StepOwner) -> None:
        return None

    def fail(self, job_id: str, stage: Stage, owner: StepOwner, error: JobCtrlError) -> None:
        return None

    def skip(self, job_id: str, stage: Stage, reason: str) -> None:
        return None

    def succeeded(self, job_id: str, stage: Stage) -> bool:
        return False
