"""``GatewayContactFetcher``: contact research's ``PageFetcher`` over the politeness gateway (robots
honoured, contact pacing and budget, honest UA), returning the page's visible text, bounded."""

from __future__ import annotations

from jobctrl.contact.ports import FetchedPage, PageFetcher, RateLimitedError, RobotsDisallowedError
from jobctrl.kernel.errors import SourceUnavailableError
from jobctrl.kernel.html import VISIBLE_PAGE, html_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget, RobotsDisallowed


class GatewayContactFetcher(PageFetcher):
    def __init__(self, gateway: PolitenessGateway, policy: CrawlPolicy) -> None:
        self.gateway = gateway
        self.policy = policy
        self.budget = RequestBudget.for_policy(policy)

    async def fetch(self, url: str) -> FetchedPage:
        try:
            response = await self.gateway.get(url, self.policy, self.budget)
        except RobotsDisallowed as exc:
            raise RobotsDisallowedError(str(exc)) from exc
        if response.status_code == 429:
            raise RateLimitedError(f"{url} answered 429")
        if response.status_code >= 400:
            raise SourceUnavailableError(f"the page answered {response.status_code}")
        return FetchedPage(url=url, status=response.status_code, text=html_text(response.text, VISIBLE_PAGE))
