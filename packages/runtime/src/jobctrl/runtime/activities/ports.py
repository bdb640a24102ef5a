"""Ports the runtime-generic activities depend on, with minimal implementations to swap at
integration.  Spend has no port here: the activities read orchestration's one ledger (ADR 0110)."""

from __future__ import annotations

from typing import Protocol

from jobctrl.orchestration import PreparationTarget

__all__ = ["NoPreparationTargets", "PreparationTarget", "PreparationTargetsPort"]


class PreparationTargetsPort(Protocol):
    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]: ...


class NoPreparationTargets:
    """No targets: a worker without a composition root (the root wires ``JobFacts``, whose targets
    are orchestration's ``derive_preparation_targets``, ADR 0263)."""

    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        return []
