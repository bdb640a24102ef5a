"""HttpxPageFetcher against a real local HTTP server: robots verdicts, statuses, bounds."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from jobctrl.enrichment.adapters.httpx_fetcher import HttpxPageFetcher
from jobctrl.enrichment.ports import PostingGoneError, RobotsDisallowedError, UnreadablePageError
from jobctrl.kernel.errors import ConfigurationError, SourceUnavailableError, TransientNetworkError

from .conftest import Route, Site

PAGE = b"<html><body><h1>Engineer</h1></body></html>"


@pytest_asyncio.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=1.0) as http:
        yield http


@pytest.mark.asyncio
async def test_fetches_an_allowed_page_with_an_honest_user_agent(
    site: Site, client: httpx.AsyncClient
) -> None:
    site.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow: /private\n", content_type="text/plain")
    site.routes["/jobs/1"] = Route(body=PAGE)
    page = await HttpxPageFetcher(client, user_agent="JobCtrl/0.1 (+ops@example.org)").fetch(
        f"{site.base}/jobs/1"
    )
    assert page.status == 200 and "Engineer" in page.body
    assert site.hits[-1] == ("/jobs/1", "JobCtrl/0.1 (+ops@example.org)")


@pytest.mark.asyncio
async def test_robots_disallow_refuses_without_fetching_the_page(
    site: Site, client: httpx.AsyncClient
) -> None:
    site.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow: /private\n", content_type="text/plain")
    site.routes["/private/1"] = Route(body=PAGE)
    fetcher = HttpxPageFetcher(client)
    with pytest.raises(RobotsDisallowedError) as info:
        await fetcher.fetch(f"{site.base}/private/1")
    assert info.value.code == "robots_disallowed" and not info.value.retryable
    assert "/private/1" not in [path for path, _ in site.hits]
    # The verdict is cached: a second page on the same origin does not refetch robots.txt.
    site.routes["/jobs/2"] = Route(body=PAGE)
    await fetcher.fetch(f"{site.base}/jobs/2")
    assert [path for path, _ in site.hits].count("/robots.txt") == 1


@pytest.mark.asyncio
async def test_missing_robots_allows(site: Site, client: httpx.AsyncClient) -> None:
    site.routes["/jobs/1"] = Route(body=PAGE)  # /robots.txt answers 404
    assert (await HttpxPageFetcher(client).fetch(f"{site.base}/jobs/1")).status == 200


@pytest.mark.asyncio
async def test_robots_server_error_fails_closed(site: Site, client: httpx.AsyncClient) -> None:
    site.routes["/robots.txt"] = Route(status=503, body=b"down")
    site.routes["/jobs/1"] = Route(body=PAGE)
    with pytest.raises(RobotsDisallowedError):
        await HttpxPageFetcher(client).fetch(f"{site.base}/jobs/1")


@pytest.mark.asyncio
async def test_robots_timeout_fails_closed(site: Site, client: httpx.AsyncClient) -> None:
    site.routes["/robots.txt"] = Route(body=b"User-agent: *\nAllow: /\n", delay=0.6)
    site.routes["/jobs/1"] = Route(body=PAGE)
    with pytest.raises(RobotsDisallowedError):
        await HttpxPageFetcher(client, robots_timeout_seconds=0.2).fetch(f"{site.base}/jobs/1")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("route", "error"),
    [
        (Route(status=404), PostingGoneError),
        (Route(status=410), PostingGoneError),
        (Route(status=503), TransientNetworkError),
        (Route(status=429), SourceUnavailableError),
        (Route(status=403), UnreadablePageError),
        (Route(content_type="application/pdf", body=b"%PDF-1.4"), UnreadablePageError),
        (Route(body=b"<p>" + b"x" * 5000 + b"</p>"), UnreadablePageError),
        (Route(body=PAGE, delay=1.5), TransientNetworkError),
    ],
    ids=["404", "410", "503", "429", "403", "pdf", "huge", "slow"],
)
async def test_bad_responses_are_typed(
    site: Site, client: httpx.AsyncClient, route: Route, error: type[Exception]
) -> None:
    site.routes["/jobs/1"] = route
    with pytest.raises(error):
        await HttpxPageFetcher(client, max_bytes=4000).fetch(f"{site.base}/jobs/1")


@pytest.mark.asyncio
async def test_unreachable_host_is_transient(client: httpx.AsyncClient) -> None:
    with pytest.raises(TransientNetworkError):
        await HttpxPageFetcher(client).fetch("http://127.0.0.1:9/jobs/1")


@pytest.mark.asyncio
async def test_a_browser_user_agent_is_refused(client: httpx.AsyncClient) -> None:
    with pytest.raises(ConfigurationError):
        HttpxPageFetcher(client, user_agent="Mozilla/5.0 (X11; Linux)")
