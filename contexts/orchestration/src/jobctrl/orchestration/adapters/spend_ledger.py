"""``llm_spend``: an UPSERT per tenant and UTC day, implementing ``jobctrl.llm.SpendRecorder``.

This is the one spend ledger and ``SpendStatus.exceeded`` the one spend rule: the worker's
``check_spend_budget`` activity, the auto-apply budget halt and the operations snapshot all read
``SpendLedger.status`` (ADR 0110).  A call's tenant is the one its request named (``LlmUsage.tenant_id``).

Spend is recorded after every call, success or not, and never refunded.  The addition happens in
the database (``cost_usd = cost_usd + excluded.cost_usd``) so concurrent recorders never lose an
increment, on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.store import Database
from jobctrl.llm import LlmUsage, estimate_cost_usd
from jobctrl.orchestration.adapters.settings_store import SettingsStore


@dataclass(frozen=True)
class SpendStatus:
    tenant_id: str
    day: str
    spent_usd: float
    budget_usd: float
    calls: int

    @property
    def unlimited(self) -> bool:
        return self.budget_usd == 0

    @property
    def exceeded(self) -> bool:
        """At or above a positive ceiling (0 means unlimited)."""
        return not self.unlimited and self.spent_usd >= self.budget_usd

    @property
    def remaining_usd(self) -> float | None:
        return None if self.unlimited else max(0.0, self.budget_usd - self.spent_usd)


def _upsert(m: str) -> str:
    """Add one call to the tenant's row of the day (``m``: the driver's parameter mark)."""
    return (
        "INSERT INTO llm_spend (tenant_id, day, cost_usd, input_tokens, output_tokens, calls, updated_at)"
        f" VALUES ({m}, {m}, {m}, {m}, {m}, 1, {m}) ON CONFLICT (tenant_id, day) DO UPDATE SET"
        " cost_usd = llm_spend.cost_usd + excluded.cost_usd,"
        " input_tokens = llm_spend.input_tokens + excluded.input_tokens,"
        " output_tokens = llm_spend.output_tokens + excluded.output_tokens,"
        " calls = llm_spend.calls + 1, updated_at = excluded.updated_at"
    )


class SpendLedger:
    def __init__(self, db: Database, budget_usd: Callable[[], float], *, clock: Clock | None = None) -> None:
        self.db = db
        self._budget_usd = budget_usd  # read live on every status (the setting takes effect at once)
        self.clock = clock or SystemClock()

    def _today(self) -> str:
        return self.clock.now().date().isoformat()

    def record(self, usage: LlmUsage) -> None:
        cost = (
            usage.cost_usd
            if usage.cost_usd is not None
            else estimate_cost_usd(usage.model, usage.input_tokens, usage.output_tokens)
        )
        self.add(
            cost,
            tenant_id=usage.tenant_id,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
        )

    def add(
        self, cost_usd: float, *, tenant_id: str = "local", input_tokens: int = 0, output_tokens: int = 0
    ) -> None:
        """Add a provider-reported or estimated cost to the tenant's row of today."""
        if cost_usd < 0 or input_tokens < 0 or output_tokens < 0:
            raise ValueError("spend cannot be negative")
        params = (
            tenant_id,
            self._today(),
            cost_usd,
            input_tokens,
            output_tokens,
            isoformat(self.clock.now()),
        )
        with self.db.write() as conn:
            # The same UPSERT on both databases, as driver SQL: one per LLM call, it was SQLAlchemy's
            # statement building and compiling per call (ADR 0376).
            conn.exec_driver_sql(_upsert(self.db.mark), params)

    def status(self, tenant_id: str = "local") -> SpendStatus:
        """The tenant's spend of today (UTC) against the current ceiling."""
        day = self._today()
        # Driver SQL, like the UPSERT: the spend preflight of every preparation read it (ADR 0395).
        m = self.db.mark
        rows = self.db.fetch(
            f"SELECT cost_usd, calls FROM llm_spend WHERE tenant_id = {m} AND day = {m}", [tenant_id, day]
        )
        spent, calls = (float(rows[0][0]), int(rows[0][1])) if rows else (0.0, 0)
        return SpendStatus(
            tenant_id=tenant_id, day=day, spent_usd=spent, budget_usd=float(self._budget_usd()), calls=calls
        )


def ledger_with_settings(db: Database, *, clock: Clock | None = None) -> SpendLedger:
    """A ledger whose ceiling is ``daily_budget_usd`` from the saved settings, read on every check."""
    settings = SettingsStore(db, clock=clock)
    return SpendLedger(db, lambda: settings.load().daily_budget_usd, clock=clock)
