"""Unit tests of the politeness gateway's parts (policies, destinations, budgets, robots, bodies)."""

from __future__ import annotations

import gzip
import ipaddress
import socket
from collections.abc import Iterator
from datetime import timedelta

import pytest

from jobctrl.discovery.sample_board.server import LocalHttpServer, Route
from jobctrl.kernel.clock import FixedClock
from jobctrl.politeness import (
    ATS_POLICY,
    CONTACT_POLICY,
    ENRICHMENT_POLICY,
    SMART_EXTRACT_POLICY,
    PolitenessGateway,
    RequestBudget,
    RequestBudgetExhausted,
    RobotsOutcome,
    TransientNetworkError,
    UnsafeDestination,
    UserAgent,
    policy_named,
)
from jobctrl.politeness import gateway as gateway_module
from jobctrl.politeness.destinations import address_is_safe, check_destination
from jobctrl.politeness.robots import ROBOTS_FETCH_TIMEOUT_S, outcome_for_status

LOCAL = ENRICHMENT_POLICY.for_local_servers().replace(min_interval_s=0.0)


@pytest.fixture
def site() -> Iterator[LocalHttpServer]:
    with LocalHttpServer() as server:
        yield server


def _gateway() -> PolitenessGateway:
    return PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=FixedClock())


def test_named_policies_are_the_reference_table() -> None:
    assert (ATS_POLICY.honor_robots, ATS_POLICY.request_budget) == (False, 2000)
    assert (ENRICHMENT_POLICY.honor_robots, ENRICHMENT_POLICY.min_interval_s) == (True, 2.0)
    assert (ENRICHMENT_POLICY.max_concurrency, ENRICHMENT_POLICY.request_budget) == (1, 1000)
    assert (SMART_EXTRACT_POLICY.honor_robots, SMART_EXTRACT_POLICY.request_budget) == (True, 50)
    assert (CONTACT_POLICY.min_interval_s, CONTACT_POLICY.max_concurrency, CONTACT_POLICY.request_budget) == (
        2.0,
        1,
        50,
    )
    assert all(
        not p.allow_loopback and p.third_party_control_bypass is False for p in (ATS_POLICY, CONTACT_POLICY)
    )
    assert policy_named("contact") is CONTACT_POLICY
    assert ROBOTS_FETCH_TIMEOUT_S == 5.0


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        (200, RobotsOutcome.PARSED),
        (204, RobotsOutcome.PARSED),
        (401, RobotsOutcome.NOT_FOUND),
        (404, RobotsOutcome.NOT_FOUND),
        (500, RobotsOutcome.SERVER_ERROR),
        (599, RobotsOutcome.SERVER_ERROR),
        (302, RobotsOutcome.OTHER_ERROR),
    ],
)
def test_robots_status_table(status: int, outcome: RobotsOutcome) -> None:
    assert outcome_for_status(status) is outcome


@pytest.mark.parametrize(
    ("address", "loopback_allowed", "safe"),
    [
        ("93.184.216.34", False, True),
        ("127.0.0.1", False, False),
        ("127.0.0.1", True, True),
        ("10.0.0.1", True, False),
        ("192.168.1.10", True, False),
        ("172.16.0.1", True, False),
        ("169.254.169.254", True, False),
        ("::1", True, True),
        ("::ffff:10.0.0.1", True, False),
        ("fe80::1", True, False),
        ("0.0.0.0", True, False),
        ("224.0.0.1", True, False),
    ],
)
def test_address_safety(address: str, loopback_allowed: bool, safe: bool) -> None:
    assert address_is_safe(ipaddress.ip_address(address), allow_loopback=loopback_allowed) is safe


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/x",
        "http://user:pw@example.org/",
        "http://localhost/",
        "http://metadata.google.internal/",
        "http://[::ffff:169.254.169.254]/",
        "/relative/path",
    ],
)
async def test_unsafe_urls_are_refused(url: str) -> None:
    with pytest.raises(UnsafeDestination):
        await check_destination(url, allow_loopback=False)


@pytest.mark.asyncio
async def test_localhost_names_pass_only_with_the_loopback_allowance() -> None:
    await check_destination("http://localhost:8080/", allow_loopback=True)
    await check_destination("http://127.0.0.1:8080/", allow_loopback=True)


def test_budget_only_goes_up_and_refuses_past_its_limit() -> None:
    budget = RequestBudget.for_policy(CONTACT_POLICY)
    for _ in range(50):
        budget.spend()
    with pytest.raises(RequestBudgetExhausted):
        budget.spend()
    assert (budget.used, budget.remaining) == (50, 0)


@pytest.mark.asyncio
async def test_a_refused_connection_or_unknown_host_is_a_transient_network_error() -> None:
    with socket.socket() as s:  # bound, never listening: it refuses, and nobody else can take it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        async with _gateway() as gw:
            policy = ATS_POLICY.for_local_servers()
            with pytest.raises(TransientNetworkError):
                await gw.get(f"http://127.0.0.1:{port}/jobs", policy, RequestBudget(3))
            with pytest.raises(TransientNetworkError):
                await gw.get("http://board.nonexistent.invalid/jobs", ATS_POLICY, RequestBudget(3))


@pytest.mark.asyncio
async def test_a_compressed_body_is_returned_decoded(site: LocalHttpServer) -> None:
    body = b'{"jobs": []}' * 100
    site.set_route("/robots.txt", Route(404))
    site.set_route("/jobs", Route(200, gzip.compress(body), headers=(("Content-Encoding", "gzip"),)))
    async with _gateway() as gw:
        response = await gw.get(site.base_url + "/jobs", LOCAL, RequestBudget(3))
    assert response.content == body and "content-encoding" not in response.headers


@pytest.mark.asyncio
async def test_robots_redirects_are_followed_and_the_verdict_is_cached_until_forgotten(
    site: LocalHttpServer,
) -> None:
    site.set_route("/robots.txt", Route(301, headers=(("Location", "/robots-real.txt"),)))
    site.set_route("/robots-real.txt", Route(200, b"User-agent: *\nDisallow: /x/\n", "text/plain"))
    async with _gateway() as gw:
        assert not (await gw.robots_verdict(site.base_url + "/x/1", LOCAL)).allowed
        assert (await gw.robots_verdict(site.base_url + "/y/1", LOCAL)).allowed
        assert len(site.requests_to("/robots.txt")) == 1
        gw.forget_robots(site.base_url + "/")
        await gw.robots_verdict(site.base_url + "/y/1", LOCAL)
    assert len(site.requests_to("/robots.txt")) == 2


@pytest.mark.asyncio
async def test_pacing_reserves_start_times_interval_apart() -> None:
    waits: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waits.append(round(seconds, 6))

    gw = PolitenessGateway(
        UserAgent(contact="https://example.org/jobctrl"), monotonic=lambda: 100.0, sleep=fake_sleep
    )
    slot = gw._slot(ENRICHMENT_POLICY, "jobs.example")
    for _ in range(3):
        await gw._pace(slot, ENRICHMENT_POLICY)
    await gw.aclose()
    assert waits == [2.0, 4.0]  # the first starts now, the next two 2 s and 4 s later


@pytest.mark.asyncio
async def test_per_origin_state_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gateway_module, "MAX_TRACKED_ORIGINS", 3)
    clock = FixedClock()
    gw = PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock)
    # Unsafe origins are judged without any network traffic, so this is fast and offline.
    for n in range(10):
        await gw.robots_verdict(f"http://10.0.0.{n}/", ENRICHMENT_POLICY)
        clock.advance(timedelta(minutes=6))  # the previous fail-closed verdicts have expired
    assert len(gw._robots) <= 3
    for n in range(10):
        gw._slot(ATS_POLICY, f"host-{n}.example")
    assert len(gw._slots) <= 4
    await gw.aclose()


@pytest.mark.asyncio
async def test_a_loopback_verdict_does_not_leak_between_policies(site: LocalHttpServer) -> None:
    site.set_route("/robots.txt", Route(404))
    async with _gateway() as gw:
        refused = await gw.robots_verdict(site.base_url + "/jobs", ENRICHMENT_POLICY)
        allowed = await gw.robots_verdict(site.base_url + "/jobs", LOCAL)
    assert (refused.allowed, refused.outcome) == (False, RobotsOutcome.UNSAFE_DESTINATION)
    assert (allowed.allowed, allowed.outcome) == (True, RobotsOutcome.NOT_FOUND)
