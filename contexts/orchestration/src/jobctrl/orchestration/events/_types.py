"""Value types shared by the orchestration event families."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Stage = Literal["discover", "enrich", "score", "tailor", "cover", "apply"]
WorkflowStatus = Literal["in_progress", "succeeded", "failed", "canceled", "timed_out", "terminated"]
StepKind = Literal[
    "source_planning",
    "source_family",
    "enrichment_pass",
    "preparation_fanout",
    "existing_backlog_sweep",
    "pdf_render",
]
WorkItemKind = Literal["score_job", "tailor_resume", "suppress_tailored_artifacts"]
ContinuationOutcome = Literal["succeeded", "failed", "canceled", "terminated", "timed_out"]
Code = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z][A-Za-z0-9_.:\-]{0,79}$")]
ItemKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Message = Annotated[str, msgspec.Meta(max_length=500)]
