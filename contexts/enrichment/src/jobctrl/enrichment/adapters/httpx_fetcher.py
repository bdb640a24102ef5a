"""A stand-alone ``PageFetcher`` over httpx that honours robots.txt (until the politeness gateway).

Robots verdicts follow the reference table: 2xx → parse and obey; 4xx → allow; 5xx or timeout →
disallow (fail closed); connection refused / DNS failure → allow.  Verdicts are cached per origin.
Page bodies are streamed and cut off at ``max_bytes`` so a huge response cannot exhaust memory.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from jobctrl.enrichment.ports import (
    FetchedPage,
    PostingGoneError,
    RobotsDisallowedError,
    UnreadablePageError,
)
from jobctrl.kernel.errors import ConfigurationError, SourceUnavailableError, TransientNetworkError

DEFAULT_USER_AGENT = "JobCtrl/0.1 (+https://github.com/jobctrl; contact: local)"
ALLOW_TTL, DISALLOW_TTL = 3600.0, 300.0
_READABLE_TYPES = ("text/html", "application/xhtml+xml", "text/plain")


class _Verdict:
    def __init__(self, parser: RobotFileParser | None, allow_all: bool, expires: float) -> None:
        self.parser, self.allow_all, self.expires = parser, allow_all, expires

    def allows(self, agent: str, url: str) -> bool:
        return self.allow_all if self.parser is None else self.parser.can_fetch(agent, url)


class HttpxPageFetcher:
    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        user_agent: str = DEFAULT_USER_AGENT,
        max_bytes: int = 2_000_000,
        robots_timeout_seconds: float = 5.0,
    ) -> None:
        if "mozilla" in user_agent.lower():
            raise ConfigurationError("the crawl User-Agent must be honest, never a browser's")
        self._client = client
        self._agent = user_agent
        self._max_bytes = max_bytes
        self._robots_timeout = robots_timeout_seconds
        self._robots: dict[str, _Verdict] = {}

    async def fetch(self, url: str) -> FetchedPage:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UnreadablePageError("only absolute http(s) URLs can be fetched")
        verdict = await self._robots_for(f"{parts.scheme}://{parts.netloc}")
        if not verdict.allows(self._agent, url):
            raise RobotsDisallowedError(f"robots.txt disallows {parts.hostname}{parts.path[:80]}")
        try:
            async with self._client.stream("GET", url, headers={"user-agent": self._agent}) as response:
                self._check_status(response.status_code)
                content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
                if content_type and not content_type.startswith(_READABLE_TYPES):
                    raise UnreadablePageError(f"not a readable page ({content_type[:40]})")
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > self._max_bytes:
                        raise UnreadablePageError(f"page larger than {self._max_bytes} bytes")
                    chunks.append(chunk)
                body = b"".join(chunks).decode(response.encoding or "utf-8", errors="replace")
                return FetchedPage(url, str(response.url), response.status_code, content_type, body)
        except httpx.TimeoutException as exc:
            raise TransientNetworkError("posting page timed out") from exc
        except httpx.TransportError as exc:
            raise TransientNetworkError(f"posting page unreachable: {type(exc).__name__}") from exc

    @staticmethod
    def _check_status(status: int) -> None:
        if status in (404, 410):
            raise PostingGoneError(f"posting page answered {status}")
        if status == 429:
            raise SourceUnavailableError("posting host is rate limiting (429)")
        if status >= 500:
            raise TransientNetworkError(f"posting host failed ({status})")
        if status >= 400:
            raise UnreadablePageError(f"posting page refused ({status})")

    async def _robots_for(self, origin: str) -> _Verdict:
        now = time.monotonic()
        cached = self._robots.get(origin)
        if cached is not None and cached.expires > now:
            return cached
        verdict = await self._fetch_robots(origin, now)
        self._robots[origin] = verdict
        return verdict

    async def _fetch_robots(self, origin: str, now: float) -> _Verdict:
        try:
            response = await self._client.get(
                f"{origin}/robots.txt", headers={"user-agent": self._agent}, timeout=self._robots_timeout
            )
        except httpx.TimeoutException:
            return _Verdict(None, False, now + DISALLOW_TTL)  # fail closed
        except httpx.ConnectError:
            return _Verdict(None, True, now + ALLOW_TTL)  # refused / DNS: allow, as the reference does
        except httpx.HTTPError:
            return _Verdict(None, False, now + DISALLOW_TTL)
        if response.status_code >= 500:
            return _Verdict(None, False, now + DISALLOW_TTL)
        if response.status_code >= 400:
            return _Verdict(None, True, now + ALLOW_TTL)
        parser = RobotFileParser()
        parser.parse(response.text.splitlines())
        return _Verdict(parser, True, now + ALLOW_TTL)
