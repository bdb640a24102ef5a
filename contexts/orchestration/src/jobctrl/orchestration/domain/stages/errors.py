"""Typed refusals of stage writes."""

from __future__ import annotations

from jobctrl.kernel.errors import JobCtrlError, MissingInputError
from jobctrl.orchestration.domain.stages.states import StageOwner


class OwnershipLost(JobCtrlError):
    """A running write came from an owner that no longer holds the row; nothing is appended."""

    code = "ownership_lost"
    retryable = False

    def __init__(self, job_id: str, stage: str, writer: StageOwner, holder: StageOwner | None) -> None:
        super().__init__(f"{stage} of {job_id} is no longer owned by {writer.workflow_id}#{writer.attempt}")
        self.writer = writer
        self.holder = holder


class OwnerRequired(MissingInputError):
    """Score, Tailor and Cover writes must say which workflow run and attempt makes them."""
