"""Which preparation a target gets: the work plan of one job in a Discover execution (ADR 0261).

A ``PreparationTarget`` is a job to prepare under a profile version (``score_job``: the whole chain;
``tailor_resume``: a still-current score, so from tailoring on).  Its ``WorkPlan`` is the decision the
fan-out records and starts: the steps, and the child ``JobPreparationWorkflow`` id ``prep-…`` derived
from the deterministic idempotency key, so a retried fan-out (or a second pass over the same facts)
plans the same child and re-attaches to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.activity_contracts.contracts import PreparationStep
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id

#: the chain a target of each kind runs, in the workflow's order
STEPS: dict[str, tuple[PreparationStep, ...]] = {
    "score_job": ("score", "tailor", "cover", "pdf"),
    "tailor_resume": ("tailor", "cover", "pdf"),
}


@dataclass(frozen=True)
class PreparationTarget:
    job_id: str
    kind: str  # score_job | tailor_resume
    target_version: int | None
    source_event_id: str


@dataclass(frozen=True)
class WorkPlan:
    """One member's plan: what discovery's execution records (``planned``) and the fan-out starts."""

    job_id: str
    steps: tuple[PreparationStep, ...]
    child_workflow_id: str
    idempotency_key: str
    target_version: int | None


def plan_preparation(tenant_id: str, target: PreparationTarget) -> WorkPlan:
    key = preparation_idempotency_key(
        tenant_id, target.job_id, target.kind, target.target_version, target.source_event_id
    )
    steps = STEPS["score_job"] if target.kind == "score_job" else STEPS["tailor_resume"]
    return WorkPlan(target.job_id, steps, preparation_workflow_id(key), key, target.target_version)
