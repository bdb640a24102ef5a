"""ContactResearchWorkflow (``contact-research-{tenant}-{taskId}``): only ever started by the user.

The spend preflight runs before the LLM candidate extraction, with the reference's tailor policy
(§0.3); ``budget_exceeded`` is non-retryable so a depleted budget still fails fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from temporalio import workflow

from jobctrl.activity_contracts.contracts import (
    ContactResearchActivityInput,
    ContactResearchActivityResult,
)
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.lifecycle import run_with_lifecycle, spend_preflight

WORKFLOW_TYPE = "ContactResearchWorkflow"


@dataclass(frozen=True)
class ContactResearchInput:
    task_id: str
    tenant: str = "local"
    employer: str | None = None
    job_id: str | None = None
    sources: list[str] = field(default_factory=list)
    llm_model: str = "default"


@workflow.defn(name=WORKFLOW_TYPE)
class ContactResearchWorkflow:
    @workflow.run
    async def run(self, params: ContactResearchInput) -> ContactResearchActivityResult:
        summary = {"taskId": params.task_id}
        return await run_with_lifecycle(WORKFLOW_TYPE, params.tenant, summary, lambda: self._research(params))

    async def _research(self, params: ContactResearchInput) -> ContactResearchActivityResult:
        await spend_preflight(params.tenant, WORKFLOW_TYPE, single_attempt=False)
        result: ContactResearchActivityResult = await workflow.execute_activity(
            "run_contact_research",
            ContactResearchActivityInput(
                params.tenant,
                params.task_id,
                params.employer,
                params.job_id,
                list(params.sources),
                params.llm_model,
            ),
            result_type=ContactResearchActivityResult,
            start_to_close_timeout=policies.HALF_HOUR,
            heartbeat_timeout=policies.HEARTBEAT,
            retry_policy=policies.TAIL,
        )
        return result
