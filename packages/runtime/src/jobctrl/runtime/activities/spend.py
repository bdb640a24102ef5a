"""``check_spend_budget``: the preflight gate of every spendful workflow (runtime reference §1.4)."""

from __future__ import annotations

from temporalio import activity

from jobctrl.activity_contracts.contracts import SpendCheckInput, SpendCheckResult
from jobctrl.kernel.errors import BudgetExceededError
from jobctrl.orchestration.workflows.errors import to_application_error
from jobctrl.runtime.activities.deps import ActivityDeps


class SpendActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="check_spend_budget")
    def check_spend_budget(self, params: SpendCheckInput) -> SpendCheckResult:
        status = self.deps.spend.today()
        if status.exhausted:
            raise to_application_error(
                BudgetExceededError(
                    f"today's LLM spend ${status.spent_usd:.2f} is at or above the daily ceiling "
                    f"${status.budget_usd:.2f}; {params.workflow_type} did not start paid work"
                )
            )
        return SpendCheckResult(status.spent_usd, status.budget_usd)
