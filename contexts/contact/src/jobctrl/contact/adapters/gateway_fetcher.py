"""``GatewayContactFetcher``: contact research's ``PageFetcher`` over the politeness gateway (robots
honoured, contact pacing and budget, honest UA), returning the page's visible text, bounded."""

from __future__ import annotations

from html.parser import HTMLParser

from jobctrl.contact.ports import FetchedPage, PageFetcher, RateLimitedError, RobotsDisallowedError
from jobctrl.kernel.errors import SourceUnavailableError
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget, RobotsDisallowed

MAX_TEXT = 200_000
_BLOCKS = {"p", "div", "li", "br", "h1", "h2", "h3", "h4", "tr", "section", "article", "header", "footer"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "noscript"):
            self._skip += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "noscript") and self._skip:
            self._skip -= 1
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)[:MAX_TEXT]


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
        return FetchedPage(url=url, status=response.status_code, text=visible_text(response.text))
