"""``job_stage_states`` as a pure fold of stage events (for the projection runner and importers)."""

from __future__ import annotations

from collections.abc import Iterable

from jobctrl.kernel.events import DomainEvent
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageState
from jobctrl.orchestration.events import Stage

STAGE_EVENT_TYPES: frozenset[str] = frozenset(cls.event_type for cls in JobStages._handlers)


def fold_job_stages(job_id: str, events: Iterable[DomainEvent]) -> dict[Stage, StageState]:
    """The stage rows of one job after ``events`` (in log order), through the same transition table
    the aggregate enforces; an event that the table refuses raises ``TransitionRejected``."""
    stages = JobStages(job_id)
    for event in events:
        stages.apply(event)
    return dict(stages.states)
