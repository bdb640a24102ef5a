"""The spend preflight every spendful workflow runs before paid work."""

from __future__ import annotations

from jobctrl.kernel.errors import BudgetExceededError
from jobctrl.orchestration.spend.ledger import SpendLedger, SpendStatus


def check_spend_budget(ledger: SpendLedger) -> SpendStatus:
    """Return today's status, or raise ``BudgetExceededError`` (non-retryable) at or above the ceiling."""
    status = ledger.status()
    if status.exceeded:
        raise BudgetExceededError(
            f"daily LLM spend {status.spent_usd:.4f} USD reached the {status.budget_usd:.2f} USD ceiling"
        )
    return status
