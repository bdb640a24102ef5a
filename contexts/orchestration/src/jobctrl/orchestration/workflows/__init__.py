"""Temporal workflows of the pipeline.

Workflows never touch a store: every effect is an activity, referenced by name with a dataclass
input from ``contracts``.  ``WORKFLOWS`` is what a worker registers.
"""

from jobctrl.orchestration.workflows.apply import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.orchestration.workflows.contact_research import ContactResearchInput, ContactResearchWorkflow
from jobctrl.orchestration.workflows.continuation import (
    ProfileContinuationInput,
    ProfileContinuationWorkflow,
)
from jobctrl.orchestration.workflows.discover import DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow

WORKFLOWS: tuple[type, ...] = (
    DiscoverWorkflow,
    JobPreparationWorkflow,
    ApplyWorkflow,
    ContactResearchWorkflow,
    ProfileContinuationWorkflow,
)

__all__ = [
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
