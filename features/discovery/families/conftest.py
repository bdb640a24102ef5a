"""Shared steps of the source-family features (features/discovery/families/*.feature).

Each family's vendor is a local server (port 0) answering in that vendor's documented shape
(``jobctrl.discovery.sample_board.vendors``); a source is added with the real CLI (``jobctrl sources
add ... --api-base``); Discover is the worker's own discovery activities over the source registry,
crawling through the one politeness gateway with the test crawl policy (loopback allowed, short
timeout, 2 MB body cap).  Misbehaviours switch the vendor's listing to a bad answer.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment
from typer.testing import CliRunner, Result

from jobctrl.activity_contracts.contracts import PlanSourcesInput, ProgressTick, SourceFamilyInput
from jobctrl.discovery.events import JobSourceObserved, SourceCrawlRecorded, SourceStateChanged
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.broad_boards import StandInBoards, WorkerKilled
from jobctrl.discovery.sample_board.postings import SamplePosting
from jobctrl.discovery.sample_board.server import LocalHttpServer, Route
from jobctrl.discovery.sample_board.vendors import (
    install_smartrecruiters,
    install_workday,
    personio_feed,
    recruitee_offers,
    workable_account,
    workday_external_path,
    workday_page,
)
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.runtime.cli import app
from jobctrl.runtime.composition.sources import registry_catalog
from jobctrl.runtime.config import load_config
from jobctrl.testing.discovery_activities import local_discovery_activities
from jobctrl.testing.stored import events_of

from .stand_ins import bad_answers, postings_of

FAMILY_NAMES = {
    "Workday": "workday",
    "SmartRecruiters": "smartrecruiters",
    "Workable": "workable",
    "Recruitee": "recruitee",
    "Personio": "personio",
}


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@dataclass
class World:
    home: Path
    vendor: LocalHttpServer
    result: Result | None = None
    board_base: str = ""
    listing: str = ""  # the vendor's listing path (switched by misbehaviours)
    family: str = ""
    errors: dict[str, str] = field(default_factory=dict)  # family → the failed family's error type
    posts: list[SamplePosting] = field(default_factory=list)
    response: Any = None  # the API's last answer
    job_id: str = ""
    boards: StandInBoards = field(default_factory=StandInBoards)  # JobSpy's edge (broad boards)

    def run(self, line: str) -> Result:
        line = line.replace("{server}", self.vendor.base_url).replace("{board}", self.board_base)
        for n, p in enumerate(self.posts, start=1):  # the stand-in's n-th posting, as its URL names it
            line = line.replace(f"{{native:{n}}}", p.native_id).replace(f"{{slug:{n}}}", p.slug)
            line = line.replace(f"{{workday_path:{n}}}", workday_external_path(p))
            line = line.replace(f"{{personio:{n}}}", str(700_000 + n - 1))
        args = shlex.split(line)
        assert args[0] == "jobctrl"
        self.result = CliRunner().invoke(app, args[1:])
        return self.result


@pytest.fixture
def world(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JOBCTRL_HOME", str(home))
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", db_url)
    with LocalHttpServer() as vendor:
        yield World(home, vendor)


def install(world: World, family: str, posts: list[SamplePosting], token: str) -> None:
    base, server = world.vendor.base_url, world.vendor
    world.family, world.posts = family, posts
    if family == "workday":
        tenant, site = token.split("/")
        world.listing = install_workday(server, base, tenant, site, posts)
    elif family == "smartrecruiters":
        world.listing = install_smartrecruiters(server, base, token, posts)
    elif family == "workable":
        world.listing = f"/api/v1/widget/accounts/{token}"
        server.set_route(world.listing, Route(200, workable_account(base, token, posts)))
    elif family == "recruitee":
        world.listing = "/api/offers/"
        server.set_route(world.listing, Route(200, recruitee_offers(base, posts)))
    else:
        world.listing = "/xml"
        server.set_route(world.listing, Route(200, personio_feed(posts), "application/xml"))


@given(
    parsers.parse('a {vendor} stand-in serving {count:d} postings of "{employer}" as "{token}"'),
    target_fixture="stand_in",
)
def stand_in(world: World, vendor: str, count: int, employer: str, token: str) -> World:
    install(world, FAMILY_NAMES[vendor], postings_of(FAMILY_NAMES[vendor], employer, count), token)
    return world


@given("the sample job board is running")
def sample_board(world: World, board: SampleJobBoard) -> None:
    world.board_base = board.base_url


@given(parsers.parse('I added the sample board\'s Greenhouse board "{token}"'))
def added_greenhouse(world: World, token: str) -> None:
    result = world.run(
        f"jobctrl sources add greenhouse {token} --name 'Globex Corporation' --api-base {{board}}"
    )
    assert result.exit_code == 0, result.output


@when(parsers.parse('I run "{line}"'))
@given(parsers.parse('I ran "{line}"'))
def run_line(world: World, line: str) -> None:
    world.run(line)


@then(parsers.parse('it exits {code:d} saying "{text}"'))
def exits_saying(world: World, code: int, text: str) -> None:
    assert world.result is not None
    assert world.result.exit_code == code, world.result.output
    assert text in " ".join(world.result.output.split()), world.result.output


@given(parsers.parse("the stand-in answers {answer}"))
def stand_in_answers(world: World, answer: str) -> None:
    route = bad_answers(world.family)[answer]
    if world.family == "workday":
        world.vendor.set_post_route(world.listing, lambda _body: route)
    else:
        world.vendor.set_route(world.listing, route)


@given(parsers.parse("the stand-in's first posting is gone"))
def first_gone(world: World) -> None:
    first = world.posts[0]
    if world.family == "workday":
        detail = world.listing.removesuffix("/jobs") + workday_external_path(first)
    else:
        detail = f"{world.listing}/{first.native_id}"
    world.vendor.set_route(detail, Route(404, b'{"message": "not found"}'))


@given(parsers.parse('the SmartRecruiters stand-in also posts the first {count:d} of them as "{token}"'))
def cross_posted(world: World, count: int, token: str) -> None:
    install_smartrecruiters(world.vendor, world.vendor.base_url, token, world.posts[:count])


def discover(world: World, store: EventStore, run: str = "run-1") -> None:
    clock = FixedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    acts = local_discovery_activities(
        store, registry_catalog(store), clock,
        broad_boards=lambda: load_config().discovery.broad_boards, board_scraper=world.boards,
    )  # fmt: skip
    env = ActivityEnvironment()
    execution = ExecutionRef("local", "discover-local", run)
    plan = env.run(acts.plan_discovery_sources, PlanSourcesInput(execution))
    for n, family in enumerate(plan.families):
        try:
            env.run(
                acts.discovery_source_family,
                SourceFamilyInput(execution, family, ProgressTick(n, len(plan.families) + 2)),
            )
        except ApplicationError as exc:
            world.errors[family] = exc.type or ""
        except WorkerKilled:  # the attempt died; Temporal would retry it (the same run)
            world.errors[family] = "worker_killed"


@when("Discover runs on my sources")
@given("Discover ran on my sources")
def discover_step(world: World, store: EventStore) -> None:
    discover(world, store)


@when("Discover runs on my sources again")
def discover_again(world: World, store: EventStore) -> None:
    discover(world, store, "run-2")


def jobs(store: EventStore) -> list[Any]:
    return [store.registry.decode(r) for r in store.read_all(limit=10_000, types=["JobDiscovered"])]


@then(parsers.parse('{count:d} new jobs from "{employer}" were discovered, each with its {family} id'))
def new_jobs(world: World, store: EventStore, count: int, employer: str, family: str) -> None:
    found = [j for j in jobs(store) if j.employer == employer]
    assert len(found) == count, [j.metadata["title"] for j in found]
    natives = {str(j.metadata["sourceNativeId"]) for j in found}
    expected = {p.native_id for p in world.posts}
    if world.family in ("workday", "smartrecruiters", "workable"):
        expected = {p.native_id.upper() if world.family == "workable" else p.native_id for p in world.posts}
        assert natives <= expected and len(natives) == count
    else:
        assert len(natives) == count and all(natives)
    assert world.errors == {}


@then("each of them is applied for on its posting's Workday apply page")
def workday_apply_pages(store: EventStore) -> None:
    found = jobs(store)
    assert found
    assert all(j.metadata["applyUrl"] == f"{j.posting_url}/apply" for j in found)


@then(parsers.parse('{count:d} new jobs from "{employer}" were discovered'))
def new_jobs_plain(store: EventStore, count: int, employer: str) -> None:
    assert sum(j.employer == employer for j in jobs(store)) == count


@then(parsers.parse("the stand-in was asked for {pages:d} pages of 20"))
def asked_pages(world: World, pages: int) -> None:
    posts = [json.loads(r.body) for r in world.vendor.posts if r.path == world.listing]
    assert [(b["offset"], b["limit"]) for b in posts] == [(20 * n, 20) for n in range(pages)]
    assert all(b["appliedFacets"] == {} and b["searchText"] == "" for b in posts)


@then(parsers.parse('the {family} family failed with "{code}" and nothing from "{employer}" was written'))
def family_failed(world: World, store: EventStore, family: str, code: str, employer: str) -> None:
    assert world.errors.get(family) == code, world.errors
    assert not [j for j in jobs(store) if j.employer == employer]
    observed = events_of(store, JobSourceObserved)
    assert not [o for o in observed if o.source_id.startswith(family)]


@then(parsers.parse('the source "{source_id}" recorded a failed crawl "{code}"'))
def failed_crawl(store: EventStore, source_id: str, code: str) -> None:
    crawls = events_of(store, SourceCrawlRecorded, limit=1000)
    mine = [(c.succeeded, c.error_class) for c in crawls if c.source_id == source_id]
    assert mine == [(False, code)], mine


@then(parsers.parse('the source "{source_id}" recorded a good crawl of {count:d} postings'))
def good_crawl(store: EventStore, source_id: str, count: int) -> None:
    crawls = events_of(store, SourceCrawlRecorded, limit=1000)
    assert [(c.succeeded, c.postings_seen) for c in crawls if c.source_id == source_id][-1] == (True, count)


@then(parsers.parse('the greenhouse family still discovered {count:d} jobs from "{employer}"'))
def others_unaffected(world: World, store: EventStore, count: int, employer: str) -> None:
    assert "greenhouse" not in world.errors
    assert sum(j.employer == employer for j in jobs(store)) == count


@then(parsers.parse('"{source_id}" was quarantined for "{reason}"'))
def quarantined(store: EventStore, source_id: str, reason: str) -> None:
    changes = events_of(store, SourceStateChanged, limit=1000)
    assert [(c.source_id, c.to_state, c.reason) for c in changes] == [(source_id, "quarantined", reason)]


@when("Discover runs on my sources three times")
def discover_three(world: World, store: EventStore) -> None:
    for n in range(3):
        discover(world, store, f"run-{n + 1}")


@then(parsers.parse("{count:d} of them were observed on both sources"))
def observed_twice(store: EventStore, count: int) -> None:
    observed = events_of(store, JobSourceObserved)
    by_job: dict[str, set[str]] = {}
    for o in observed:
        by_job.setdefault(o.job_id, set()).add(o.source_id)
    assert sum(len(s) == 2 for s in by_job.values()) == count, by_job


@then(
    parsers.parse("after the first search the stand-in was searched once per location, {count:d} locations")
)
def split_by_location(world: World, count: int) -> None:
    bodies = [json.loads(r.body) for r in world.vendor.posts if r.path == world.listing]
    unfaceted = [b for b in bodies if b["appliedFacets"] == {}]
    assert [b["offset"] for b in unfaceted] == [20 * n for n in range(25)]  # the first search's 25 pages
    split = {tuple(b["appliedFacets"]["locations"]) for b in bodies if b["appliedFacets"]}
    assert len(split) == count and all(len(v) == 1 for v in split), split


@given("the stand-in offers no facets")
def no_facets(world: World) -> None:
    posts = world.posts

    def page(body: bytes) -> Route:
        asked = json.loads(body)
        page = json.loads(workday_page(posts, int(asked["offset"]), int(asked["limit"])))
        page["facets"] = []
        return Route(200, json.dumps(page).encode())

    world.vendor.set_post_route(world.listing, page)
