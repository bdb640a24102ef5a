"""Ports the runtime-generic activities depend on, with minimal implementations to swap at
integration (the real ``llm_spend`` ledger and stage machine are owned by the orchestration context)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import inspect, text

from jobctrl.kernel.store import Database


@dataclass(frozen=True)
class SpendStatus:
    spent_usd: float
    budget_usd: float

    @property
    def exhausted(self) -> bool:
        # 0 means unlimited; at-or-above a positive ceiling is exhausted.
        return self.budget_usd > 0 and self.spent_usd >= self.budget_usd


class SpendStatusPort(Protocol):
    def today(self) -> SpendStatus: ...


class FixedSpendStatus:
    def __init__(self, spent_usd: float = 0.0, budget_usd: float = 25.0) -> None:
        self.spent_usd = spent_usd
        self.budget_usd = budget_usd

    def today(self) -> SpendStatus:
        return SpendStatus(self.spent_usd, self.budget_usd)


class LedgerSpendStatus:
    """Reads today's (UTC) row of an ``llm_spend(day, cost_usd)`` table when it exists; no table means
    nothing spent yet.  The budget comes from settings."""

    def __init__(self, db: Database, budget_usd: float) -> None:
        self.db = db
        self.budget_usd = budget_usd

    def today(self) -> SpendStatus:
        day = datetime.now(UTC).date().isoformat()
        if not inspect(self.db.engine).has_table("llm_spend"):
            return SpendStatus(0.0, self.budget_usd)
        with self.db.read() as conn:
            spent = conn.execute(
                text("SELECT COALESCE(SUM(cost_usd), 0) FROM llm_spend WHERE day = :d"), {"d": day}
            ).scalar_one()
        return SpendStatus(float(spent), self.budget_usd)


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
