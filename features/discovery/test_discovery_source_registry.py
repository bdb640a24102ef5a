"""Steps of features/discovery/source_registry.feature."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.domain.source_health import SourceRecommendation, SourceRunOutcome
from jobctrl.discovery.events import SourceRegistryEntryCreated, SourceStateChanged
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.misbehaviour import BAD_ANSWERS, LISTING_PATHS, quick_local_policy
from jobctrl.discovery.use_cases.apply_source_recommendation import apply_source_recommendation
from jobctrl.discovery.use_cases.change_source_state import change_source_state
from jobctrl.discovery.use_cases.register_source import register_source
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.discovery.use_cases.run_source_family import run_source_family
from jobctrl.discovery.use_cases.select_runnable_sources import select_runnable_sources
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import PolitenessGateway, UserAgent

scenarios("discovery/source_registry.feature")

OUTCOMES = {
    "ok": SourceRunOutcome(True, 10, 1),
    "fail": SourceRunOutcome(False),
    "dup": SourceRunOutcome(True, 10, 10),
}


@dataclass
class World:
    """What a source-registry scenario remembers between its steps."""

    # what each applied recommendation returned (None: the source stayed as it was), in step order
    applied: list[SourceRecommendation | None] = field(default_factory=list)


@pytest.fixture
def world() -> World:
    return World()


def _decoded(store: EventStore, event_type: str) -> list[Any]:
    return [store.registry.decode(r) for r in store.read_all(limit=1000, types=[event_type])]


@when(parsers.parse('source "{source_id}" of kind {kind} with policy "{policy}" is registered twice'))
def register_twice(store: EventStore, clock: FixedClock, source_id: str, kind: Any, policy: str) -> None:
    assert register_source(store, source_id=source_id, kind=kind, policy_id=policy, clock=clock) is True
    assert register_source(store, source_id=source_id, kind=kind, policy_id=policy, clock=clock) is False


@then(
    parsers.parse('{count:d} SourceRegistryEntryCreated event was raised for "{source_id}" in state {state}')
)
def created(store: EventStore, count: int, source_id: str, state: str) -> None:
    events: list[SourceRegistryEntryCreated] = _decoded(store, "SourceRegistryEntryCreated")
    assert [(e.source_id, e.state, e.policy_id) for e in events] == [(source_id, state, "ats")] * count


@then(parsers.parse('registering source "{source_id}" with policy "{policy}" fails with "{code}"'))
def register_fails(store: EventStore, clock: FixedClock, source_id: str, policy: str, code: str) -> None:
    with pytest.raises(JobCtrlError) as err:
        register_source(store, source_id=source_id, kind="ats_api", policy_id=policy, clock=clock)
    assert err.value.code == code


@then("the log is empty")
def log_empty(store: EventStore) -> None:
    assert store.head_position() == 0


@given(parsers.parse('an active source "{source_id}"'))
def active_source(store: EventStore, clock: FixedClock, source_id: str) -> None:
    register_source(store, source_id=source_id, kind="ats_api", policy_id="ats", state="active", clock=clock)


@given(parsers.parse('an operator disabled "{source_id}"'))
def operator_disabled(store: EventStore, clock: FixedClock, source_id: str) -> None:
    assert change_source_state(store, source_id=source_id, to="disabled", reason="operator", clock=clock)


@when(parsers.parse("its last runs were {outcomes}"))
def last_runs(store: EventStore, clock: FixedClock, world: World, outcomes: str) -> None:
    [created] = _decoded(store, "SourceRegistryEntryCreated")
    history = [OUTCOMES[o.strip()] for o in outcomes.split(",")]
    world.applied.append(
        apply_source_recommendation(store, source_id=created.source_id, outcomes=history, clock=clock)
    )


@given(parsers.parse('the Greenhouse board "{name}" answers {answer} three runs in a row'))
def three_failed_runs(
    runner: Any, store: EventStore, board: SampleJobBoard, clock: FixedClock, name: str, answer: str
) -> None:
    board.server.set_route(LISTING_PATHS["greenhouse"].format(name), BAD_ANSWERS[answer])
    [source] = [s for s in board.sources() if s.source_id == f"greenhouse-{name}"]
    history: list[SourceRunOutcome] = []

    async def crawl(run_id: str) -> None:
        async with PolitenessGateway(UserAgent(contact="https://example.org/jobctrl"), clock=clock) as gw:
            result = await run_source_family(
                store, gw, [source], run_id=run_id, clock=clock, policy_override=quick_local_policy
            )
        history.append(result.source_outcomes[source.source_id])
        apply_source_recommendation(store, source_id=source.source_id, outcomes=history, clock=clock)

    for n in range(3):
        runner.run(crawl(f"run-{n}"))
    assert [o.succeeded for o in history] == [False, False, False]


@then(
    parsers.parse(
        'a SourceStateChanged event moved "{source_id}" from {from_state} to {to_state} for "{reason}"'
    )
)
def moved(store: EventStore, source_id: str, from_state: str, to_state: str, reason: str) -> None:
    changes: list[SourceStateChanged] = _decoded(store, "SourceStateChanged")
    assert [(c.source_id, c.from_state, c.to_state, c.reason) for c in changes] == [
        (source_id, from_state, to_state, reason)
    ]


@then(parsers.parse('re-activating "{source_id}" automatically fails with "{code}"'))
def auto_reactivation_refused(
    store: EventStore, clock: FixedClock, world: World, source_id: str, code: str
) -> None:
    assert world.applied == [None]  # no recommendation applies to a disabled source
    with pytest.raises(JobCtrlError) as err:
        change_source_state(
            store, source_id=source_id, to="active", reason="recovered", clock=clock, operator=False
        )
    assert err.value.code == code


@then(parsers.parse('an operator can re-activate "{source_id}"'))
def operator_reactivates(store: EventStore, clock: FixedClock, source_id: str) -> None:
    assert change_source_state(store, source_id=source_id, to="active", reason="operator", clock=clock)
    changes: list[SourceStateChanged] = _decoded(store, "SourceStateChanged")
    assert [(c.from_state, c.to_state) for c in changes] == [("active", "disabled"), ("disabled", "active")]


@given("every sample source is registered as active")
def register_all(store: EventStore, board: SampleJobBoard, clock: FixedClock) -> None:
    sources = board.sources()
    assert register_sources(store, sources, clock=clock) == len(sources)
    assert register_sources(store, sources, clock=clock) == 0
    kinds = {e.kind for e in _decoded(store, "SourceRegistryEntryCreated")}
    assert kinds == {"ats_api", "employer_careers_page"}


@given(parsers.parse('an operator moved "{source_id}" to {state}'))
def operator_moved(store: EventStore, clock: FixedClock, source_id: str, state: Any) -> None:
    assert change_source_state(store, source_id=source_id, to=state, reason="operator", clock=clock)


@then(parsers.parse('the runnable sample sources are all but "{first}" and "{second}"'))
def runnable(store: EventStore, board: SampleJobBoard, first: str, second: str) -> None:
    everything = board.sources()
    chosen = {s.source_id for s in select_runnable_sources(store, everything)}
    assert chosen == {s.source_id for s in everything} - {first, second}
