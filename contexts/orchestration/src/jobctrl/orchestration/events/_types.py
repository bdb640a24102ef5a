"""Value types shared by the orchestration event families."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from jobctrl.activity_contracts.contracts import StepKind
from jobctrl.kernel.stages import Stage

WorkflowStatus = Literal["in_progress", "succeeded", "failed", "canceled", "timed_out", "terminated"]
WorkItemKind = Literal["score_job", "tailor_resume", "suppress_tailored_artifacts"]
ContinuationOutcome = Literal["succeeded", "failed", "canceled", "terminated", "timed_out"]
Code = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z][A-Za-z0-9_.:\-]{0,79}$")]
ItemKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Message = Annotated[str, msgspec.Meta(max_length=500)]

__all__ = [
    "Code",
    "ContinuationOutcome",
    "ItemKey",
    "Message",
    "Stage",
    "StepKind",
    "WorkItemKind",
    "WorkflowStatus",
]
