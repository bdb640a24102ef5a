"""Named placeholders for the context activities, so a worker built without the composition root
(``jobctrl.runtime.composition``, which overrides every one of them) still registers every name the
workflows call.  Each fails with a non-retryable ``configuration`` error naming the missing wiring, so
an unwired worker fails a run loudly instead of pretending work happened.  Integration replaces these
entries in ``jobctrl.runtime.activities.REGISTRY`` with the contexts' real implementations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration.workflows.contracts import (
    ApplyActivityInput,
    ApplyActivityResult,
    ContactResearchActivityInput,
    ContactResearchActivityResult,
    EnrichmentInput,
    EnrichmentResult,
    PlanSourcesInput,
    PlanSourcesResult,
    PreparationCheckpoint,
    PreparationCheckpointInput,
    PreparationStepInput,
    PreparationStepResult,
    SourceFamilyInput,
    SourceFamilyResult,
)
from jobctrl.orchestration.workflows.errors import to_application_error


def _unwired(name: str) -> Exception:
    return to_application_error(ConfigurationError(f"activity {name} is not wired to its context yet"))


@activity.defn(name="plan_discovery_sources")
def plan_discovery_sources(params: PlanSourcesInput) -> PlanSourcesResult:
    raise _unwired("plan_discovery_sources")


@activity.defn(name="discovery_source_family")
def discovery_source_family(params: SourceFamilyInput) -> SourceFamilyResult:
    raise _unwired("discovery_source_family")


@activity.defn(name="discovery_enrichment")
def discovery_enrichment(params: EnrichmentInput) -> EnrichmentResult:
    raise _unwired("discovery_enrichment")


@activity.defn(name="load_preparation_checkpoint")
def load_preparation_checkpoint(params: PreparationCheckpointInput) -> PreparationCheckpoint:
    # No stage machine yet: nothing is known to be complete, so a rerun starts at the first step.
    return PreparationCheckpoint([])


@activity.defn(name="score_job")
def score_job(params: PreparationStepInput) -> PreparationStepResult:
    raise _unwired("score_job")


@activity.defn(name="tailor_job")
def tailor_job(params: PreparationStepInput) -> PreparationStepResult:
    raise _unwired("tailor_job")


@activity.defn(name="cover_letter")
def cover_letter(params: PreparationStepInput) -> PreparationStepResult:
    raise _unwired("cover_letter")


@activity.defn(name="render_pdf")
def render_pdf(params: PreparationStepInput) -> PreparationStepResult:
    raise _unwired("render_pdf")


@activity.defn(name="recover_preparation_state")
def recover_preparation_state(params: PreparationStepInput) -> None:
    # No stage rows are owned until the stage machine is wired, so there is nothing to reconcile.
    return None


@activity.defn(name="apply")
def apply(params: ApplyActivityInput) -> ApplyActivityResult:
    raise _unwired("apply")


@activity.defn(name="run_contact_research")
def run_contact_research(params: ContactResearchActivityInput) -> ContactResearchActivityResult:
    raise _unwired("run_contact_research")


STUBS: tuple[Callable[..., Any], ...] = (
    plan_discovery_sources,
    discovery_source_family,
    discovery_enrichment,
    load_preparation_checkpoint,
    score_job,
    tailor_job,
    cover_letter,
    render_pdf,
    recover_preparation_state,
    apply,
    run_contact_research,
)
