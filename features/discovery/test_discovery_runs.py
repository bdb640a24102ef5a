"""Steps of features/discovery/discovery_runs.feature."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.adapters.base import ObservedPosting
from jobctrl.discovery.adapters.lever import fetch_lever
from jobctrl.discovery.commands.run_source_family import FamilyResult, run_source_family
from jobctrl.discovery.events import JobDiscovered
from jobctrl.discovery.sample_board import Route, SampleJobBoard
from jobctrl.discovery.sample_board.postings import DISALLOWED_PREFIX
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.politeness import ATS_POLICY, CrawlPolicy, PolitenessGateway, RequestBudget, UserAgent

scenarios("discovery/discovery_runs.feature")


def _local(policy: CrawlPolicy) -> CrawlPolicy:
    return policy.for_local_servers().replace(
        min_interval_s=0.0, request_timeout_s=0.5, max_body_bytes=2_000_000
    )


@pytest.fixture
def store(database: Database) -> EventStore:
    s = EventStore(database, registry())
    s.create_schema()
    return s


@pytest.fixture
def board() -> Iterator[SampleJobBoard]:
    with SampleJobBoard() as b:
        yield b


@given("the sample job board is running")
def board_running(board: SampleJobBoard) -> None:
    assert board.base_url.startswith("http://127.0.0.1")


@given(parsers.parse('the Greenhouse board "{name}" answers {answer}'))
def misbehaving(board: SampleJobBoard, name: str, answer: str) -> None:
    path = f"/v1/boards/{name}/jobs"
    route = {
        "malformed": Route(200, b'{"jobs": [{"id": 1, "title": "Eng'),
        "empty": Route(200, b""),
        "wrong shape": Route(200, b'{"jobs": {"id": 1}}'),
        "huge": Route(200, b'{"jobs": [' + b'{"id": 1},' * 300_000 + b"{}]}"),
        "slowly": Route(200, b'{"jobs": []}', delay_s=1.5),
        "503": Route(503, b"unavailable"),
        "404": Route(404, b'{"error": "board not found"}'),
    }[answer]
    board.server.set_route(path, route)


def _run(
    runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock, run_id: str
) -> FamilyResult:
    async def go() -> FamilyResult:
        async with PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock) as gw:
            return await run_source_family(
                store, gw, board.sources(), run_id=run_id, clock=clock, policy_override=_local
            )

    result: FamilyResult = runner.run(go())
    return result


@given("a discovery run crawled every sample source")
def crawled(runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock) -> None:
    _run(runner, store, board, clock, "run-1")


@when("a discovery run crawls every sample source")
def crawl(
    runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock, ctx: dict[str, Any]
) -> None:
    ctx["result"] = _run(runner, store, board, clock, "run-2")


@when(parsers.parse('the Lever board "{name}" is crawled for titles "{title}" in "{location}"'))
def crawl_filtered(
    runner: Any,
    board: SampleJobBoard,
    clock: FixedClock,
    ctx: dict[str, Any],
    name: str,
    title: str,
    location: str,
) -> None:
    [config] = [s for s in board.sources() if s.source_id == f"lever-{name}"]
    config = dataclasses.replace(config, title_filters=(title,), location_filters=(location,))

    async def go() -> list[ObservedPosting]:
        async with PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock) as gw:
            return await fetch_lever(gw, config, _local(ATS_POLICY), RequestBudget(5))

    ctx["postings"] = runner.run(go())


@then(
    parsers.parse(
        "the run completed with {total:d} postings, {new:d} new jobs, {existing:d} existing, "
        "{dup:d} duplicates, {held:d} held"
    )
)
def run_counts(ctx: dict[str, Any], total: int, new: int, existing: int, dup: int, held: int) -> None:
    result: FamilyResult = ctx["result"]
    c = result.counts
    assert not result.failed and result.error_classes == []
    assert (c.total, c.new_jobs, c.existing_jobs, c.duplicate_jobs, c.rejected_duplicates) == (
        total,
        new,
        existing,
        dup,
        held,
    )


@then(parsers.parse("{count:d} DuplicateJobLinked events were raised"))
def duplicate_links(store: EventStore, count: int) -> None:
    assert len(store.read_all(limit=10_000, types=["DuplicateJobLinked"])) == count


@then("no robots-disallowed page was requested")
def robots_respected(board: SampleJobBoard) -> None:
    assert not [r for r in board.server.requests if r.path.startswith(DISALLOWED_PREFIX)]
    assert board.server.requests_to("/robots.txt")


@then(parsers.parse('the run completed listing the error class "{code}"'))
def error_class(ctx: dict[str, Any], code: str) -> None:
    result: FamilyResult = ctx["result"]
    assert not result.failed and result.error_classes == [code]


@then(parsers.parse('no job from "{employer}" was recorded'))
def nothing_written(store: EventStore, employer: str) -> None:
    employers = {
        store.registry.decode(r).employer  # type: ignore[attr-defined]
        for r in store.read_all(limit=10_000, types=[JobDiscovered.event_type])
    }
    assert employer not in employers and len(employers) >= 5


@then(parsers.parse('every posting found has "{title}" in its title and "{location}" in its location'))
def filtered(ctx: dict[str, Any], title: str, location: str) -> None:
    postings: list[ObservedPosting] = ctx["postings"]
    assert postings
    assert all(title in p.title and location in p.location for p in postings)
