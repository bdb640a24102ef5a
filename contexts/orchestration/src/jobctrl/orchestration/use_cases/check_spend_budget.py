"""The spend preflight every spendful workflow runs before paid work (the one spend rule, ADR 0110)."""

from __future__ import annotations

from jobctrl.kernel.errors import BudgetExceededError
from jobctrl.orchestration.adapters.spend_ledger import SpendLedger, SpendStatus


def check_spend_budget(ledger: SpendLedger, tenant_id: str = "local") -> SpendStatus:
    """The tenant's status of today, or ``BudgetExceededError`` (non-retryable) at or above the ceiling."""
    status = ledger.status(tenant_id)
    if status.exceeded:
        raise BudgetExceededError(
            f"today's LLM spend of tenant {tenant_id!r}, {status.spent_usd:.4f} USD, reached the "
            f"{status.budget_usd:.2f} USD ceiling"
        )
    return status
