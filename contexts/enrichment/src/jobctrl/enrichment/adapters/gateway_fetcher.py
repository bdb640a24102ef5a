"""``GatewayPageFetcher``: the ``PageFetcher`` port served by the politeness gateway (robots, pacing,
budget, honest User-Agent), mapping the gateway's typed errors onto Enrichment's."""

from __future__ import annotations

from jobctrl.enrichment.ports import FetchedPage, PageFetcher, PostingGoneError, RobotsDisallowedError
from jobctrl.kernel.errors import SourceUnavailableError
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget, RobotsDisallowed


class GatewayPageFetcher(PageFetcher):
    def __init__(self, gateway: PolitenessGateway, policy: CrawlPolicy) -> None:
        self.gateway = gateway
        self.policy = policy
        self.budget = RequestBudget.for_policy(policy)  # one budget per enrichment pass

    async def fetch(self, url: str) -> FetchedPage:
        try:
            response = await self.gateway.get(url, self.policy, self.budget)
        except RobotsDisallowed as exc:
            raise RobotsDisallowedError(str(exc)) from exc
        if response.status_code in (404, 410):
            raise PostingGoneError(f"the posting page answered {response.status_code}")
        if response.status_code >= 400:
            raise SourceUnavailableError(f"the posting page answered {response.status_code}")
        return FetchedPage(
            url=url,
            final_url=str(response.url),
            status=response.status_code,
            content_type=response.headers.get("content-type", ""),
            body=response.text,
        )
