"""Temporal workflows of the pipeline.

Workflows never touch a store: every effect is an activity, referenced by name with a dataclass
input from ``contracts``.  ``WORKFLOWS`` is what a worker registers; each workflow's type name is
exported as ``<NAME>_WORKFLOW_TYPE`` (the package exports of ``jobctrl.orchestration`` re-export them).
"""

from jobctrl.orchestration.workflows.apply import WORKFLOW_TYPE as APPLY_WORKFLOW_TYPE
from jobctrl.orchestration.workflows.apply import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.orchestration.workflows.contact_research import WORKFLOW_TYPE as CONTACT_RESEARCH_WORKFLOW_TYPE
from jobctrl.orchestration.workflows.contact_research import ContactResearchInput, ContactResearchWorkflow
from jobctrl.orchestration.workflows.continuation import WORKFLOW_TYPE as CONTINUATION_WORKFLOW_TYPE
from jobctrl.orchestration.workflows.continuation import (
    ProfileContinuationInput,
    ProfileContinuationWorkflow,
)
from jobctrl.orchestration.workflows.discover import WORKFLOW_TYPE as DISCOVER_WORKFLOW_TYPE
from jobctrl.orchestration.workflows.discover import DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.preparation import WORKFLOW_TYPE as PREPARATION_WORKFLOW_TYPE
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow

WORKFLOWS: tuple[type, ...] = (
    DiscoverWorkflow,
    JobPreparationWorkflow,
    ApplyWorkflow,
    ContactResearchWorkflow,
    ProfileContinuationWorkflow,
)

__all__ = [
    "APPLY_WORKFLOW_TYPE",
    "CONTACT_RESEARCH_WORKFLOW_TYPE",
    "CONTINUATION_WORKFLOW_TYPE",
    "DISCOVER_WORKFLOW_TYPE",
    "PREPARATION_WORKFLOW_TYPE",
    "WORKFLOWS",
    "ApplyWorkflow",
    "ApplyWorkflowInput",
    "ContactResearchInput",
    "ContactResearchWorkflow",
    "DiscoverWorkflow",
    "DiscoverWorkflowInput",
    "JobPreparationInput",
    "JobPreparationWorkflow",
    "ProfileContinuationInput",
    "ProfileContinuationWorkflow",
]
