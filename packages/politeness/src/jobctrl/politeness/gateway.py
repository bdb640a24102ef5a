"""The one politeness gateway every outbound crawl request goes through.

``get``, and ``post_json`` for documented JSON search APIs.  For each request, in this order: the
destination is checked (http(s), public address, loopback only when the policy allows it);
robots.txt is consulted when the policy honours it; the run's budget is charged; the host's pacing
and concurrency slot is awaited; then the request is sent with the honest User-Agent.  Redirects are
followed by hand (``get`` only), at most ``policy.max_redirects`` hops, and every hop goes through
the same checks, so a redirect cannot lead around robots or into a private network.  The body is
read in chunks up to ``policy.max_body_bytes``; a larger body raises and nothing of it is returned.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import httpx

from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.politeness.budget import RequestBudget
from jobctrl.politeness.destinations import DnsFailure, check_destination, split_http_url
from jobctrl.politeness.errors import (
    ResponseTooLarge,
    RobotsDisallowed,
    SourceUnavailableError,
    TooManyRedirects,
    TransientNetworkError,
    UnsafeDestination,
)
from jobctrl.politeness.policy import CrawlPolicy
from jobctrl.politeness.robots import (
    ROBOTS_FETCH_TIMEOUT_S,
    ROBOTS_MAX_BYTES,
    RobotsOutcome,
    RobotsRules,
    RobotsVerdict,
    outcome_for_status,
    parse_robots,
)
from jobctrl.politeness.user_agent import UserAgent

log = logging.getLogger(__name__)

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
# Per-origin state grows with the hosts crawled; past this many origins, expired robots entries and
# idle host slots are dropped (a crawl touching more live hosts than this just refetches robots.txt).
MAX_TRACKED_ORIGINS = 4096


def origin_of(url: str) -> str:
    parts = split_http_url(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


@dataclass
class _HostSlot:
    """Pacing and concurrency state of one (policy, host) pair."""

    semaphore: asyncio.Semaphore
    pacing: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_start: float = 0.0


class PolitenessGateway:
    """Send GET requests politely.  One instance per process (its caches and host slots are shared).

    ``client`` may be given (its own redirects are never used); otherwise the gateway owns one and
    ``aclose()`` closes it.  ``clock`` dates robots cache entries; ``monotonic``/``sleep`` drive pacing;
    ``robots_timeout_s`` is the reference's 5 s (tests shorten it).
    """

    def __init__(
        self,
        user_agent: UserAgent,
        *,
        client: httpx.AsyncClient | None = None,
        clock: Clock | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        robots_timeout_s: float = ROBOTS_FETCH_TIMEOUT_S,
    ) -> None:
        self.user_agent = user_agent
        self.robots_timeout_s = robots_timeout_s
        self._client = client or httpx.AsyncClient(follow_redirects=False, trust_env=False)
        self._owns_client = client is None
        self._clock = clock or SystemClock()
        self._monotonic = monotonic
        self._sleep = sleep
        # Keyed by (origin, allow_loopback): a loopback origin judged unsafe under one policy must
        # not answer for a policy that is allowed to reach it, and vice versa.
        self._robots: dict[tuple[str, bool], RobotsRules] = {}
        self._robots_locks: dict[tuple[str, bool], asyncio.Lock] = {}
        self._slots: dict[tuple[str, str], _HostSlot] = {}

    async def __aenter__(self) -> PolitenessGateway:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    # ------------------------------------------------------------------ robots
    async def robots_verdict(self, url: str, policy: CrawlPolicy | None = None) -> RobotsVerdict:
        """May ``url`` be fetched under robots.txt?  Exempt policies always get ``EXEMPT``/allowed."""
        if policy is not None and not policy.honor_robots:
            return RobotsVerdict(url, True, RobotsOutcome.EXEMPT, False, None)
        allow_loopback = policy.allow_loopback if policy is not None else False
        try:
            origin = origin_of(url)
        except UnsafeDestination:
            return RobotsVerdict(url, False, RobotsOutcome.UNSAFE_DESTINATION, False, None)
        rules = await self._rules_for(origin, allow_loopback=allow_loopback)
        allowed = rules.allows(url, self.user_agent.robots_token)
        warning = rules.outcome is RobotsOutcome.UNREACHABLE
        return RobotsVerdict(url, allowed, rules.outcome, warning, rules.expires_at)

    def forget_robots(self, url: str) -> None:
        """Drop the cached verdict for the URL's origin (the next request fetches robots.txt again)."""
        origin = origin_of(url)
        for allow_loopback in (False, True):
            self._robots.pop((origin, allow_loopback), None)

    async def _rules_for(self, origin: str, *, allow_loopback: bool) -> RobotsRules:
        key = (origin, allow_loopback)
        lock = self._robots_locks.setdefault(key, asyncio.Lock())
        async with lock:  # one fetch per origin even when many requests arrive together
            cached = self._robots.get(key)
            if cached is not None and self._clock.now() < cached.expires_at:
                return cached
            rules = await self._fetch_robots(origin, allow_loopback=allow_loopback)
            self._prune()
            if rules.outcome is RobotsOutcome.UNREACHABLE:
                log.warning("robots.txt of %s unreachable; allowing for %s", origin, rules.outcome.ttl)
            self._robots[key] = rules
            return rules

    async def _fetch_robots(self, origin: str, *, allow_loopback: bool) -> RobotsRules:
        now = self._clock.now()
        url = f"{origin}/robots.txt"
        try:
            status, body = await asyncio.wait_for(
                self._robots_request(url, allow_loopback=allow_loopback), self.robots_timeout_s
            )
        except UnsafeDestination:
            return RobotsRules(origin, RobotsOutcome.UNSAFE_DESTINATION, now)
        except (DnsFailure, httpx.ConnectError):
            # ConnectError (not a timeout) is a refused connection or an unresolvable name.
            return RobotsRules(origin, RobotsOutcome.UNREACHABLE, now)
        except (TimeoutError, httpx.TimeoutException):
            return RobotsRules(origin, RobotsOutcome.TIMEOUT, now)
        except Exception:  # any other failure fails closed, by the table
            log.warning("robots.txt of %s failed; disallowing", origin, exc_info=True)
            return RobotsRules(origin, RobotsOutcome.OTHER_ERROR, now)
        outcome = outcome_for_status(status)
        if outcome is RobotsOutcome.PARSED:
            text = body[:ROBOTS_MAX_BYTES].decode("utf-8", errors="replace")
            return RobotsRules(origin, outcome, now, parse_robots(text))
        return RobotsRules(origin, outcome, now)

    async def _robots_request(self, url: str, *, allow_loopback: bool) -> tuple[int, bytes]:
        for _hop in range(6):
            await check_destination(url, allow_loopback=allow_loopback)
            async with self._client.stream(
                "GET", url, headers=self._headers(), timeout=self.robots_timeout_s
            ) as response:
                if response.status_code in _REDIRECTS and "location" in response.headers:
                    url = urljoin(url, response.headers["location"])
                    continue
                body = await _read_capped(response, ROBOTS_MAX_BYTES, truncate=True)
                return response.status_code, body
        raise TooManyRedirects("robots.txt redirected too often")

    # ------------------------------------------------------------------ requests
    async def get(
        self,
        url: str,
        policy: CrawlPolicy,
        budget: RequestBudget,
        *,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """GET ``url`` politely; return the final response (any status) with its body read.

        Raises ``UnsafeDestination``, ``RobotsDisallowed``, ``RequestBudgetExhausted``,
        ``TooManyRedirects`` / ``ResponseTooLarge`` (code ``source_unavailable``) or
        ``TransientNetworkError`` (timeouts, refused connections, unresolvable names, broken streams).
        """
        current = url
        for _hop in range(policy.max_redirects + 1):
            response = await self._one_request(current, policy, budget, headers or {})
            location = response.headers.get("location")
            if response.status_code not in _REDIRECTS or not location:
                return response
            current = urljoin(current, location)
        raise TooManyRedirects(f"more than {policy.max_redirects} redirects")

    async def post_json(
        self,
        url: str,
        body: object,
        policy: CrawlPolicy,
        budget: RequestBudget,
        *,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """POST a JSON body (a documented search API such as Workday's CXS) under the same checks as
        ``get``: destination, robots when the policy honours it, budget, pacing, UA, body cap.
        Redirects are not followed (a search API that redirects is not answering): the 3xx response is
        returned for the caller to refuse."""
        content = json.dumps(body, separators=(",", ":")).encode()
        extra = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        return await self._one_request(url, policy, budget, extra, method="POST", content=content)

    async def _one_request(
        self,
        url: str,
        policy: CrawlPolicy,
        budget: RequestBudget,
        extra_headers: dict[str, str],
        *,
        method: str = "GET",
        content: bytes | None = None,
    ) -> httpx.Response:
        try:
            await check_destination(url, allow_loopback=policy.allow_loopback)
        except DnsFailure as exc:
            raise TransientNetworkError(f"name did not resolve: {exc}") from exc
        if policy.honor_robots:
            verdict = await self.robots_verdict(url, policy)
            if not verdict.allowed:
                raise RobotsDisallowed(f"robots.txt ({verdict.outcome.value}) disallows {url[:200]}")
        budget.spend()
        slot = self._slot(policy, urlsplit(url).netloc.lower())
        async with slot.semaphore:
            await self._pace(slot, policy)
            try:
                async with self._client.stream(
                    method,
                    url,
                    headers={**extra_headers, **self._headers()},
                    content=content,
                    timeout=policy.request_timeout_s,
                ) as response:
                    body = await _read_capped(response, policy.max_body_bytes, truncate=False)
                    return _detached(response, body)
            except httpx.TimeoutException as exc:
                raise TransientNetworkError(f"timed out: {type(exc).__name__}") from exc
            except httpx.TransportError as exc:
                raise TransientNetworkError(f"transport error: {type(exc).__name__}") from exc

    async def _pace(self, slot: _HostSlot, policy: CrawlPolicy) -> None:
        # Start times are reserved under a lock, so N concurrent requests start >= interval apart.
        async with slot.pacing:
            now = self._monotonic()
            wait = slot.next_start - now
            slot.next_start = max(now, slot.next_start) + policy.min_interval_s
        if wait > 0:
            await self._sleep(wait)

    def _slot(self, policy: CrawlPolicy, host: str) -> _HostSlot:
        key = (policy.name, host)
        slot = self._slots.get(key)
        if slot is None:
            if len(self._slots) >= MAX_TRACKED_ORIGINS:
                now = self._monotonic()
                # Only slots nobody holds and whose pacing window has passed can be forgotten safely.
                idle = [
                    k
                    for k, s in self._slots.items()
                    if not s.semaphore.locked() and not s.pacing.locked() and s.next_start <= now
                ]
                for k in idle:
                    del self._slots[k]
            slot = self._slots[key] = _HostSlot(asyncio.Semaphore(policy.max_concurrency))
        return slot

    def _prune(self) -> None:
        if len(self._robots) <= MAX_TRACKED_ORIGINS:
            return
        now = self._clock.now()
        for key in [k for k, rules in self._robots.items() if rules.expires_at <= now]:
            del self._robots[key]
            lock = self._robots_locks.get(key)
            if lock is not None and not lock.locked():
                del self._robots_locks[key]
        while len(self._robots) > MAX_TRACKED_ORIGINS:  # all still fresh: drop the oldest
            del self._robots[next(iter(self._robots))]

    def _headers(self) -> dict[str, str]:
        return {"User-Agent": self.user_agent.header()}


async def _read_capped(response: httpx.Response, cap: int, *, truncate: bool) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > cap:
            if truncate:
                chunks.append(chunk)
                break
            raise ResponseTooLarge(f"response larger than {cap} bytes")
        chunks.append(chunk)
    return b"".join(chunks)[: cap if truncate else None]


def _detached(response: httpx.Response, body: bytes) -> httpx.Response:
    """A closed, fully read copy: the body is already decoded, so encoding headers must go."""
    headers = [
        (k, v)
        for k, v in response.headers.multi_items()
        if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    return httpx.Response(response.status_code, headers=headers, content=body, request=response.request)


__all__ = ["PolitenessGateway", "SourceUnavailableError", "origin_of"]
