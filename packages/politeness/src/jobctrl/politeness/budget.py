"""Per-run request budgets."""

from __future__ import annotations

from jobctrl.politeness.errors import RequestBudgetExhausted
from jobctrl.politeness.policy import CrawlPolicy


class RequestBudget:
    """A counter shared by every request of one run under one policy; it only goes up.

    The gateway spends one unit per HTTP request it sends (each redirect hop included; robots.txt
    fetches are cached per host and not charged).  ``spend`` is checked before the request leaves.
    """

    def __init__(self, limit: int, *, name: str = "run") -> None:
        if limit < 0:
            raise ValueError("budget limit must be >= 0")
        self.limit = limit
        self.name = name
        self._used = 0

    @classmethod
    def for_policy(cls, policy: CrawlPolicy) -> RequestBudget:
        return cls(policy.request_budget, name=policy.name)

    @property
    def used(self) -> int:
        return self._used

    @property
    def remaining(self) -> int:
        return self.limit - self._used

    def spend(self, units: int = 1) -> None:
        if self._used + units > self.limit:
            raise RequestBudgetExhausted(f"{self.name}: request budget of {self.limit} spent")
        self._used += units
