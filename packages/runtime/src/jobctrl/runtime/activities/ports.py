"""Ports the runtime-generic activities depend on, with minimal implementations to swap at
integration.  Spend has no port here: the activities read orchestration's one ledger (ADR 0110)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class PreparationTarget:
    job_id: str
    kind: str  # score_job | tailor_resume
    target_version: int | None
    source_event_id: str


class PreparationTargetsPort(Protocol):
    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]: ...


class NoPreparationTargets:
    """Placeholder until the orchestration context's ``derive_preparation_targets`` is wired."""

    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        return []
