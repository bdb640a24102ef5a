"""Pipeline-step detail codes: the allowlist is the union of the codes this project emits and the
reference's documented ones; anything else is still stored as ``unlisted`` (issue #12 item 9)."""

from __future__ import annotations

import pytest

from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.orchestration.events import PipelineStepCompleted, StepDetail
from jobctrl.projections.model import EventInfo
from jobctrl.projections.read_models.pipeline_steps import UNLISTED_CODE, on_step

REF = ExecutionRefPayload(tenant_id="local", workflow_id="discover-local", temporal_run_id="r1")


def _fold(code: str) -> str | None:
    event = PipelineStepCompleted(
        execution=REF, step_kind="source_family", item_key="greenhouse", attempt=1,
        detail=StepDetail(code=code, item_count=3), completed_at="2026-03-02T09:00:00.000Z", duration_ms=5,
    )  # fmt: skip
    row = on_step(
        None, event, EventInfo.of(1, "PipelineStepCompleted", "local", "2026-03-02T09:00:00.000Z", b"{}")
    )
    assert row is not None
    return row.detail_code


@pytest.mark.parametrize(
    "code",
    [
        # what this project's step reporter emits (the step kind is the code)
        "source_planning", "source_family", "enrichment_pass", "preparation_fanout",
        "existing_backlog_sweep", "pdf_render",
        # the reference's documented step details
        "terminal_reconciliation", "existing_backlog", "families_planned", "workflows_started",
    ],
)  # fmt: skip
def test_a_listed_code_is_kept(code: str) -> None:
    assert _fold(code) == code


@pytest.mark.parametrize("code", ["https://example.com/secret", "job title leaked", "stack_trace"])
def test_anything_else_is_unlisted(code: str) -> None:
    assert _fold(code) == UNLISTED_CODE
