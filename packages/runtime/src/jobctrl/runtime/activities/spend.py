"""``check_spend_budget``: the preflight gate of every spendful workflow (runtime reference §1.4).

The rule is orchestration's (``check_spend_budget`` over ``SpendLedger``, ADR 0110); this activity only
runs it for the workflow's tenant and maps its ``budget_exceeded`` to a non-retryable failure.
"""

from __future__ import annotations

from temporalio import activity

from jobctrl.activity_contracts.contracts import SpendCheckInput, SpendCheckResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.kernel.errors import BudgetExceededError
from jobctrl.orchestration import check_spend_budget
from jobctrl.runtime.activities.deps import ActivityDeps


class SpendActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="check_spend_budget")
    def check_spend_budget(self, params: SpendCheckInput) -> SpendCheckResult:
        try:
            status = check_spend_budget(self.deps.spend, params.tenant_id)
        except BudgetExceededError as exc:
            raise to_application_error(
                BudgetExceededError(f"{exc.message}; {params.workflow_type} did not start paid work")
            ) from exc
        return SpendCheckResult(status.spent_usd, status.budget_usd)
