"""Steps of features/discovery/politeness.feature."""

from __future__ import annotations

import asyncio
import itertools
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.sample_board.server import LocalHttpServer, Route
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import ConfigurationError, JobCtrlError
from jobctrl.politeness import (
    ATS_POLICY,
    ENRICHMENT_POLICY,
    CrawlPolicy,
    PolitenessGateway,
    RequestBudget,
    RobotsVerdict,
    UserAgent,
)
from jobctrl.politeness.user_agent import package_version

scenarios("discovery/politeness.feature")

LOCAL = ENRICHMENT_POLICY.for_local_servers().replace(min_interval_s=0.0)


@dataclass
class World:
    """What a politeness scenario remembers between its steps."""

    base: str = ""  # where the career site is reached, when not the local site (refused, unknown, private)
    verdict: RobotsVerdict | None = None  # the last robots verdict asked for
    results: list[JobCtrlError | httpx.Response] = field(default_factory=list)  # a request run's outcomes

    def robots_verdict(self) -> RobotsVerdict:
        assert self.verdict is not None, "no robots verdict was asked for"
        return self.verdict


@pytest.fixture
def world() -> World:
    return World()


@pytest.fixture
def gateway(runner: Any, clock: FixedClock) -> Iterator[PolitenessGateway]:
    # The reference's 5 s robots budget: only the scenario about a slow robots.txt shortens it.
    gw = PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock)
    yield gw
    runner.run(gw.aclose())


@pytest.fixture
def refusing_port() -> Iterator[int]:
    """A port that refuses connections: bound (so nobody else takes it) but never listening."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


def _url(world: World, site: LocalHttpServer, path: str) -> str:
    return path if path.startswith("http") else (world.base or site.base_url) + path


@given(parsers.parse("a career site whose robots.txt answers {answer}"))
def robots_answers(
    site: LocalHttpServer,
    world: World,
    answer: str,
    gateway: PolitenessGateway,
    request: pytest.FixtureRequest,
) -> None:
    site.set_route("/jobs/1", Route(200, b"<html>job</html>", "text/html"))
    if answer.isdigit():
        site.set_route("/robots.txt", Route(int(answer), b"", "text/plain"))
    elif answer == "slowly":
        # A timeout scenario: a short budget, and an answer that comes 200 times later (never, in effect).
        gateway.robots_timeout_s = 0.3
        site.set_route("/robots.txt", Route(200, b"User-agent: *\nAllow: /\n", "text/plain", delay_s=60.0))
    elif answer == "connection refused":
        world.base = f"http://127.0.0.1:{request.getfixturevalue('refusing_port')}"
    elif answer == "an unknown host":
        world.base = "http://jobs.nonexistent.invalid"
    elif answer == "from 10.1.2.3":
        world.base = "http://10.1.2.3"
    else:  # pragma: no cover - a typo in the feature file
        raise AssertionError(answer)


@given(parsers.parse('a career site whose robots.txt disallows "{path}" for JobCtrl'))
def robots_disallows(site: LocalHttpServer, path: str) -> None:
    body = f"User-agent: JobCtrl\nDisallow: {path}\n\nUser-agent: *\nAllow: /\n".encode()
    site.set_route("/robots.txt", Route(200, body, "text/plain"))
    site.set_route("/jobs/1", Route(200, b"<html>job</html>", "text/html"))
    site.set_route("/private/job-9", Route(200, b"<html>secret</html>", "text/html"))


@given(parsers.parse('the site answers slowly on "{path}"'))
def slow_route(site: LocalHttpServer, path: str) -> None:
    site.set_route(path, Route(200, b"ok", "text/plain", delay_s=0.1))


@given(parsers.parse('"{path}" redirects to itself'))
def self_redirect(site: LocalHttpServer, path: str) -> None:
    site.set_route(path, Route(302, b"", headers=(("Location", path),)))


@given(parsers.parse('"{path}" redirects to "{target}"'))
def redirect(site: LocalHttpServer, path: str, target: str) -> None:
    site.set_route(path, Route(302, b"", headers=(("Location", target),)))


@given(parsers.parse('"{path}" serves {size:d} bytes'))
def huge(site: LocalHttpServer, path: str, size: int) -> None:
    site.set_route(path, Route(200, b"x" * size, "text/plain"))


@when(parsers.parse('the enrichment policy asks whether "{path}" may be fetched'))
def ask(runner: Any, gateway: PolitenessGateway, site: LocalHttpServer, world: World, path: str) -> None:
    world.verdict = runner.run(gateway.robots_verdict(_url(world, site, path), LOCAL))


@when(parsers.parse('the enrichment policy asks whether "{path}" may be fetched at minutes {minutes}'))
def ask_over_time(
    runner: Any, gateway: PolitenessGateway, site: LocalHttpServer, clock: FixedClock, path: str, minutes: str
) -> None:
    elapsed = 0
    for minute in (int(m) for m in minutes.split(",")):
        clock.advance(timedelta(minutes=minute - elapsed))
        elapsed = minute
        runner.run(gateway.robots_verdict(site.base_url + path, LOCAL))


def _attempt(runner: Any, coro: Any) -> JobCtrlError | httpx.Response:
    try:
        result: httpx.Response = runner.run(coro)
    except JobCtrlError as exc:
        return exc
    return result


@when(
    parsers.parse('{count:d} requests for "{path}" are made under the ATS policy with a budget of {limit:d}')
)
def ats_requests(
    runner: Any,
    gateway: PolitenessGateway,
    site: LocalHttpServer,
    world: World,
    count: int,
    path: str,
    limit: int,
) -> None:
    budget = RequestBudget(limit)
    policy = ATS_POLICY.for_local_servers()
    world.results = [
        _attempt(runner, gateway.get(site.base_url + path, policy, budget)) for _ in range(count)
    ]


@when(
    parsers.parse(
        '{count:d} requests for "{path}" are made at once under a policy with {interval:f} s interval '
        "and {conc:d} concurrent request"
    )
)
def concurrent_requests(
    runner: Any,
    gateway: PolitenessGateway,
    site: LocalHttpServer,
    count: int,
    path: str,
    interval: float,
    conc: int,
) -> None:
    policy = LOCAL.replace(name="paced", min_interval_s=interval, max_concurrency=conc)
    budget = RequestBudget(10)

    async def all_at_once() -> None:
        await asyncio.gather(*(gateway.get(site.base_url + path, policy, budget) for _ in range(count)))

    runner.run(all_at_once())


@when(parsers.parse('"{path}" is fetched by an agent with contact "{contact}"'))
def fetch_with_agent(runner: Any, site: LocalHttpServer, clock: FixedClock, path: str, contact: str) -> None:
    async def fetch() -> None:
        async with PolitenessGateway(UserAgent(contact=contact), clock=clock) as gw:
            await gw.get(site.base_url + path, LOCAL, RequestBudget(1))

    runner.run(fetch())


@then(parsers.parse("the robots verdict says {verdict}"))
def verdict_is(world: World, verdict: str) -> None:
    v = world.robots_verdict()
    expected = {
        "allowed": (True, False),
        "disallowed": (False, False),
        "allowed with warning": (True, True),
    }[verdict]
    assert (v.allowed, v.warning) == expected, v


@then(parsers.parse("the robots verdict is cached for {minutes:d} minutes"))
def cached_for(world: World, clock: FixedClock, minutes: int) -> None:
    expires_at = world.robots_verdict().expires_at
    assert expires_at is not None and expires_at - clock.now() == timedelta(minutes=minutes)


@then(parsers.parse("robots.txt was fetched {count:d} times"))
def robots_fetches(site: LocalHttpServer, count: int) -> None:
    assert len(site.requests_to("/robots.txt")) == count


@then(parsers.parse('fetching "{path}" under the enrichment policy fails with "{code}"'))
@then(parsers.parse('fetching "{path}" fails with "{code}"'))
def fetch_fails(
    runner: Any, gateway: PolitenessGateway, site: LocalHttpServer, world: World, path: str, code: str
) -> None:
    before = len(site.requests)
    result = _attempt(runner, gateway.get(_url(world, site, path), LOCAL, RequestBudget(20)))
    assert isinstance(result, JobCtrlError) and result.code == code, result
    if code in ("robots_disallowed", "unsafe_destination") and not path.startswith("/to-"):
        # refused before anything was sent to the page itself
        assert [r.path for r in site.requests[before:] if r.path != "/robots.txt"] == []


@then(parsers.parse('fetching "{path}" under the enrichment policy succeeds'))
def fetch_succeeds(runner: Any, gateway: PolitenessGateway, site: LocalHttpServer, path: str) -> None:
    result = _attempt(runner, gateway.get(site.base_url + path, LOCAL, RequestBudget(5)))
    assert isinstance(result, httpx.Response) and result.status_code == 200


@then(parsers.parse('fetching the site without the local-server allowance fails with "{code}"'))
def loopback_refused(runner: Any, gateway: PolitenessGateway, site: LocalHttpServer, code: str) -> None:
    result = _attempt(runner, gateway.get(site.base_url + "/jobs/1", ENRICHMENT_POLICY, RequestBudget(5)))
    assert isinstance(result, JobCtrlError) and result.code == code
    assert site.requests == []


@then(parsers.parse('fetching "{path}" under a policy capped at {cap:d} bytes fails with "{code}"'))
def capped(
    runner: Any, gateway: PolitenessGateway, site: LocalHttpServer, path: str, cap: int, code: str
) -> None:
    policy = LOCAL.replace(max_body_bytes=cap)
    result = _attempt(runner, gateway.get(site.base_url + path, policy, RequestBudget(5)))
    assert isinstance(result, JobCtrlError) and result.code == code


@then(parsers.parse("{count:d} requests reached the site"))
def reached(site: LocalHttpServer, count: int) -> None:
    assert len(site.requests_to("/jobs/1")) == count
    assert site.requests_to("/robots.txt") == []  # exempt: robots never consulted


@then(parsers.parse('the third request failed with "{code}"'))
def third_failed(world: World, code: str) -> None:
    third = world.results[2]
    assert isinstance(third, JobCtrlError) and third.code == code


@then("no two requests to the site were in flight together")
def never_overlapping(site: LocalHttpServer) -> None:
    assert max(r.in_flight for r in site.requests_to("/slow")) == 1


@then(parsers.parse("consecutive requests started at least {interval:f} s apart"))
def paced(site: LocalHttpServer, interval: float) -> None:
    times = [r.arrived_at for r in site.requests_to("/slow")]
    assert len(times) == 3
    # Arrival times include connection set-up and scheduling jitter on a shared machine, hence 50 ms
    # of slack; without pacing the gaps would be the server's 0.1 s answer time.
    assert all(b - a >= interval - 0.05 for a, b in itertools.pairwise(times))


@then(parsers.parse('the site saw the User-Agent "{expected}"'))
def saw_agent(site: LocalHttpServer, expected: str) -> None:
    agents = {r.user_agent for r in site.requests}
    assert agents == {expected.replace("<version>", package_version())}
    assert not any("Mozilla" in a for a in agents)


@then("a browser-like User-Agent is refused as a configuration error")
def browser_refused() -> None:
    with pytest.raises(ConfigurationError):
        UserAgent(contact="https://x.example", product="Mozilla")


@then("a policy that bypasses third-party controls is refused as a configuration error")
def bypass_refused() -> None:
    with pytest.raises(ConfigurationError):
        CrawlPolicy("evil", True, 0, 1, 1, third_party_control_bypass=True)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        ENRICHMENT_POLICY.replace(third_party_control_bypass=True)
