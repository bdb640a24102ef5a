"""Steps of features/discovery/discovery_runs.feature."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.adapters.base import ObservedPosting, SourceConfig
from jobctrl.discovery.adapters.lever import fetch_lever
from jobctrl.discovery.events import (
    AtsKind,
    DiscoveryRunCompleted,
    DiscoveryRunFailed,
    DiscoveryRunProgressRecorded,
    DuplicateJobLinked,
    JobDiscovered,
    JobSourceObserved,
)
from jobctrl.discovery.sample_board import Route, SampleJobBoard
from jobctrl.discovery.sample_board.misbehaviour import (
    BAD_ANSWERS,
    LISTING_PATHS,
    break_listing,
    quick_local_policy,
)
from jobctrl.discovery.sample_board.postings import DISALLOWED_PREFIX, SAMPLE_POSTINGS
from jobctrl.discovery.use_cases.run_discovery import run_discovery
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import (
    DiscoveryRunLog,
    interrupt_discovery_run,
    report_discovery_progress,
    start_discovery_run,
)
from jobctrl.politeness import ATS_POLICY, PolitenessGateway, RequestBudget, UserAgent

scenarios("discovery/discovery_runs.feature")
FORMATS: dict[str, AtsKind] = {
    "Greenhouse": "greenhouse",
    "Lever": "lever",
    "Ashby": "ashby",
    "Careers": "other",
}


@dataclass
class World:
    """What a discovery-run scenario remembers between its steps."""

    head: int | None = None  # the log's head after the first crawl (None: nothing crawled yet)
    postings: list[ObservedPosting] = field(default_factory=list)  # what a filtered crawl found
    interrupts: list[bool] = field(default_factory=list)  # whether each interruption recorded the end


@pytest.fixture
def world() -> World:
    return World()


def _events(store: EventStore, cls: type[DomainEvent]) -> list[Any]:
    return [store.registry.decode(r) for r in store.read_all(limit=10_000, types=[cls.event_type])]


@given(parsers.parse('the {fmt} board "{name}" answers {answer}'))
def misbehaving(board: SampleJobBoard, fmt: str, name: str, answer: str) -> None:
    board.server.set_route(LISTING_PATHS[FORMATS[fmt]].format(name), BAD_ANSWERS[answer])


@given(parsers.parse('the first detail page of the "{board_name}" career page answers {status:d}'))
def detail_gone(board: SampleJobBoard, board_name: str, status: int) -> None:
    [first] = [p for p in SAMPLE_POSTINGS if p.format == "other" and p.board == board_name][:1]
    board.server.set_route(f"/careers/{board_name}/jobs/{first.slug}", Route(status, b"gone", "text/html"))


@given(parsers.parse("every sample source answers {answer}"))
def all_misbehaving(board: SampleJobBoard, answer: str) -> None:
    for source in board.sources():
        break_listing(board.server, source, BAD_ANSWERS[answer])


def _run(
    runner: Any,
    store: EventStore,
    board: SampleJobBoard,
    clock: FixedClock,
    run_id: str,
    only: set[str] | None = None,
    *,
    families: list[list[SourceConfig]] | None = None,
    max_parallel_families: int = 1,
) -> None:
    """One discovery run over the sample board: by default two families (ATS boards, career pages)."""
    if families is None:
        sources = [s for s in board.sources() if only is None or s.board in only]
        families = [
            [s for s in sources if s.ats_kind != "other"],
            [s for s in sources if s.ats_kind == "other"],
        ]

    async def go() -> None:
        async with PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock) as gw:
            await run_discovery(
                store,
                gw,
                families,
                runs=DiscoveryRunLog(store, clock),
                run_id=run_id,
                clock=clock,
                policy_override=quick_local_policy,
                max_parallel_families=max_parallel_families,
            )

    runner.run(go())


@given("a discovery run crawled every sample source")
def crawled(runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock, world: World) -> None:
    _run(runner, store, board, clock, "run-1")
    world.head = store.head_position()


@when("a discovery run crawls every sample source")
def crawl(runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock) -> None:
    _run(runner, store, board, clock, "run-2")


@when(parsers.parse('a discovery run crawls the boards "{first}" and "{second}"'))
def crawl_two(
    runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock, first: str, second: str
) -> None:
    _run(runner, store, board, clock, "run-2", only={first, second})


@when(
    parsers.parse("a discovery run crawls every sample source as {count:d} families, {parallel:d} at a time")
)
def crawl_parallel(
    runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock, count: int, parallel: int
) -> None:
    sources = board.sources()
    kinds = sorted({s.family_name for s in sources})
    families = [[s for s in sources if s.family_name == kind] for kind in kinds]
    assert len(families) == count
    _run(runner, store, board, clock, "run-p", families=families, max_parallel_families=parallel)


@when("the same discovery run is repeated")
def repeat(runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock) -> None:
    _run(runner, store, board, clock, "run-1")


@when(parsers.parse('the Lever board "{name}" is crawled for titles "{title}" in "{location}"'))
def crawl_filtered(
    runner: Any,
    board: SampleJobBoard,
    clock: FixedClock,
    world: World,
    name: str,
    title: str,
    location: str,
) -> None:
    [config] = [s for s in board.sources() if s.source_id == f"lever-{name}"]
    config = dataclasses.replace(config, title_filters=(title,), location_filters=(location,))

    async def go() -> list[ObservedPosting]:
        async with PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock) as gw:
            return await fetch_lever(gw, config, quick_local_policy(ATS_POLICY), RequestBudget(5))

    world.postings = runner.run(go())


def _last_completed(store: EventStore) -> DiscoveryRunCompleted:
    completed: list[DiscoveryRunCompleted] = _events(store, DiscoveryRunCompleted)
    assert completed and not _events(store, DiscoveryRunFailed)
    return completed[-1]


@then(
    parsers.parse(
        "the run completed with {total:d} postings, {new:d} new jobs, {existing:d} existing, "
        "{dup:d} duplicates, {held:d} held"
    )
)
def run_counts(store: EventStore, total: int, new: int, existing: int, dup: int, held: int) -> None:
    done = _last_completed(store)
    c = done.counts
    assert done.error_classes == []
    assert (c.total, c.new_jobs, c.existing_jobs, c.duplicate_jobs, c.rejected_duplicates) == (
        total,
        new,
        existing,
        dup,
        held,
    )
    assert c.observed_jobs == new + existing + dup


@then(parsers.parse('the merges were decided by "{first}" and "{second}"'))
def merge_reasons(store: EventStore, first: str, second: str) -> None:
    links: list[DuplicateJobLinked] = _events(store, DuplicateJobLinked)
    assert sorted(link.reason for link in links) == sorted([first, second])
    assert {link.confidence for link in links} == {0.95, 0.85}


@then("the merged Northwind job keeps the observations of both of its sources")
def observations_survive(store: EventStore) -> None:
    links: list[DuplicateJobLinked] = _events(store, DuplicateJobLinked)
    observations: list[JobSourceObserved] = _events(store, JobSourceObserved)
    for link in links:
        sources = {o.source_id for o in observations if o.job_id == link.surviving_job_id}
        assert sources == {"greenhouse-northwind", "careers-northwind"}
        assert link.superseded_job_or_observation_id in {o.source_observation_id for o in observations}


@then(parsers.parse("the run progress was recorded as {expected}"))
def progress(store: EventStore, expected: str) -> None:
    recorded: list[DiscoveryRunProgressRecorded] = _events(store, DiscoveryRunProgressRecorded)
    assert [f"{p.completed}/{p.total}" for p in recorded] == expected.split(", ")


@then("no robots-disallowed page was requested")
def robots_respected(board: SampleJobBoard) -> None:
    assert not [r for r in board.server.requests if r.path.startswith(DISALLOWED_PREFIX)]
    assert board.server.requests_to("/robots.txt")


@then("the log holds no new events")
def no_new_events(store: EventStore, world: World) -> None:
    assert world.head is not None and store.head_position() == world.head


@then(
    parsers.parse('the "{source_id}" source yielded {count:d} postings and the error classes are "{codes}"')
)
def source_yield(store: EventStore, source_id: str, count: int, codes: str) -> None:
    observed = [o for o in _events(store, JobSourceObserved) if o.source_id == source_id]
    assert len(observed) == count
    assert _last_completed(store).error_classes == [c for c in codes.split(",") if c != "none"]


@then(parsers.parse('the run completed listing the error class "{code}"'))
def error_class(store: EventStore, code: str) -> None:
    assert _last_completed(store).error_classes == [code]


@then(parsers.parse('the run failed with the error class "{code}"'))
def run_failed(store: EventStore, code: str) -> None:
    failed: list[DiscoveryRunFailed] = _events(store, DiscoveryRunFailed)
    assert [f.error_class for f in failed] == [code] and not _events(store, DiscoveryRunCompleted)
    assert failed[0].retryable is True


@then(parsers.parse('no job from "{employer}" was recorded'))
def nothing_written(store: EventStore, employer: str) -> None:
    employers = {e.employer for e in _events(store, JobDiscovered)}
    assert employer not in employers and employers == {"Initech"}


@then("no job was recorded")
def no_jobs(store: EventStore) -> None:
    assert _events(store, JobDiscovered) == [] and _events(store, JobSourceObserved) == []


@then(parsers.parse('every posting found has "{title}" in its title and "{location}" in its location'))
def filtered(world: World, title: str, location: str) -> None:
    postings = world.postings
    assert postings
    assert all(title in p.title and location in p.location for p in postings)


# -- a run that dies mid-family (ADR 0079) ----------------------------------------------------------
@given(parsers.parse("a discovery run was started over {families:d} source families"))
def started(store: EventStore, clock: FixedClock, families: int) -> None:
    start_discovery_run(
        store, run_id="run-d", source_ids=["lever-a", "ashby-b"], family_count=families, clock=clock
    )


@when(parsers.parse('the run is interrupted because its workflow was "{reason}"'))
@when(parsers.parse('the run is interrupted again because its workflow was "{reason}"'))
def interrupted(store: EventStore, clock: FixedClock, world: World, reason: str) -> None:
    retryable = reason != "canceled"
    world.interrupts.append(
        interrupt_discovery_run(store, run_id="run-d", reason=reason, retryable=retryable, clock=clock)
    )


@when(parsers.parse('the finished run is interrupted because its workflow was "{reason}"'))
def finished_interrupted(store: EventStore, clock: FixedClock, reason: str) -> None:
    assert not interrupt_discovery_run(store, run_id="run-1", reason=reason, retryable=True, clock=clock)


@when(parsers.parse("a family of the dead run reports progress {done:d} of {total:d} after all"))
def late_progress(store: EventStore, clock: FixedClock, done: int, total: int) -> None:
    assert not report_discovery_progress(store, run_id="run-d", completed=done, total=total, clock=clock)


@then("the run has exactly one terminal fact")
def one_terminal(store: EventStore, world: World) -> None:
    ended = _events(store, DiscoveryRunFailed) + _events(store, DiscoveryRunCompleted)
    assert [e.run_id for e in ended] == ["run-d"]
    assert world.interrupts == [True, False]


@then(parsers.parse('the run failed with the error class "{code}", no failed source, retryable'))
def interrupted_as(store: EventStore, code: str) -> None:
    [failed] = _events(store, DiscoveryRunFailed)
    assert (failed.error_class, failed.source_id, failed.retryable) == (code, "", True)
