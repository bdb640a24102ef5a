"""Steps of features/discovery/families/broad_boards.feature (shared steps: this folder's conftest).

JobSpy is the vendor edge: ``StandInBoards`` answers the gateway's ``scrape_jobs`` call with the
library's own rows (``jobspy.model.JobPost``) and DataFrame shape; everything else is the real crawl.
"""

from __future__ import annotations

import json

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.sample_board.broad_boards import BoardPosting
from jobctrl.discovery.sample_board.postings import ROLES, SamplePosting, describe
from jobctrl.kernel.store import EventStore

from .conftest import World, discover, jobs
from .stand_ins import project

pytestmark = pytest.mark.both_databases

scenarios("discovery/families/broad_boards.feature")

SITES = {"Indeed": "indeed", "LinkedIn": "linkedin"}
ANSWERS = {
    "429": ("failing", "response status code 429 (blocked: use a proxy)"),
    "503": ("failing", "response status code 503"),
    "a parse error": ("failing", "Expecting value: line 1 column 1 (char 0)"),
    "rows without a URL": ("malformed", ""),
    "the wrong columns": ("wrong_columns", ""),
    "a crash in the library": ("crashing", ""),
}


def _events(store: EventStore, kind: str) -> list[object]:
    return [store.registry.decode(r) for r in store.read_all(limit=10_000, types=[kind])]


@given("broad boards are turned on")
def broad_boards_on(world: World) -> None:
    (world.home / "config.toml").write_text("[discovery]\nbroad_boards = true\n")


@given(parsers.parse('{board} lists {count:d} "{keyword}" postings of "{employer}" in "{location}"'))
def board_lists(world: World, board: str, count: int, keyword: str, employer: str, location: str) -> None:
    site = SITES[board]
    for _ in range(count):
        seq = 7000 + len(world.boards.postings)
        role = ROLES[seq % len(ROLES)]
        posting = SamplePosting(
            "other", site, employer, f"JK{seq}", f"job-{seq}", f"{role.title} {seq}", f"{location}, Europe",
            role.department, describe(employer, "builds things", role, location, seq) + " " + project(seq),
        )  # fmt: skip
        url = f"https://www.{site}.com/viewjob?jk={seq:x}"
        world.boards.postings.append(BoardPosting(site, keyword, location, posting, url))


@given(parsers.parse('Indeed also lists the first {count:d} of them for "{keyword}" at its own URLs'))
def cross_listed(world: World, count: int, keyword: str) -> None:
    for n, p in enumerate(world.posts[:count]):
        url = f"https://www.indeed.com/viewjob?jk=aa{n:04d}&from=serp"
        world.boards.postings.append(BoardPosting("indeed", keyword, "", p, url))


@given("the worker dies during JobSpy's third search")
def dies_third(world: World) -> None:
    world.boards.kill_at_call = 3


@given(parsers.parse("JobSpy answers for {site} {answer}"))
def answers(world: World, site: str, answer: str) -> None:
    kind, message = ANSWERS[answer]
    if kind == "failing":
        world.boards.failing[site] = message
    else:
        getattr(world.boards, kind).add(site)


@when("the same run is retried")
def retried(world: World, store: EventStore) -> None:
    world.errors.clear()
    discover(world, store, "run-1")


@then(parsers.parse("JobSpy ran {count:d} searches of at most {wanted:d} results, {hours:d} hours old"))
def asked(world: World, count: int, wanted: int, hours: int) -> None:
    calls = world.boards.calls
    assert len(calls) == count, calls
    assert {(c["results_wanted"], c["hours_old"], c["description_format"]) for c in calls} == {
        (wanted, hours, "markdown")
    }
    assert all(len(c["site_name"]) == 1 and c["user_agent"].startswith("JobCtrl/") for c in calls)
    asked_units = {(c["site_name"][0], c["search_term"], c["location"]) for c in calls}
    assert len(asked_units) == count  # every unit once


@then("JobSpy was not asked for anything")
def not_asked(world: World) -> None:
    assert world.boards.calls == []


@then(parsers.parse('JobSpy was asked again only for "{first}" and "{second}"'))
def asked_again(world: World, first: str, second: str) -> None:
    calls = world.boards.calls
    assert [c["location"] for c in calls[:3]] == ["Berlin", "Paris", "Rome"]  # the third one died
    assert [c["location"] for c in calls[3:]] == [first, second]


@then(parsers.parse('{count:d} search units of "{source_id}" were recorded as done'))
def units_done(store: EventStore, count: int, source_id: str) -> None:
    done = [e for e in _events(store, "BroadBoardUnitCompleted") if e.source_id == source_id]  # type: ignore[attr-defined]
    assert len(done) == count, done
    assert len({e.unit_id for e in done}) == count  # type: ignore[attr-defined]


@then(parsers.parse('no search unit of "{source_id}" was recorded as done'))
def no_unit_done(store: EventStore, source_id: str) -> None:
    units_done(store, 0, source_id)


@then(parsers.parse('the jobs were observed with "{first}" and "{second}" as their sources'))
def observed_sources(store: EventStore, first: str, second: str) -> None:
    observed = _events(store, "JobSourceObserved")
    assert {o.source_id for o in observed} == {first, second}  # type: ignore[attr-defined]
    assert all(o.source_native_id for o in observed)  # type: ignore[attr-defined]
    assert {j.source for j in jobs(store)} == {first, second}


@then(parsers.parse("all {count:d} jobs are members of the Discover execution"))
def members(store: EventStore, count: int) -> None:
    linked = {e.job_id for e in _events(store, "DiscoveryExecutionMemberLinked")}  # type: ignore[attr-defined]
    found = {j.job_id for j in jobs(store)}
    assert len(found) == count and linked == found


@then("no source was added")
def none_added(world: World) -> None:
    result = world.run("jobctrl sources list --format json")
    assert result.exit_code == 0 and json.loads(result.output) == []
