"""Steps for features/orchestration/profile_outbox.feature, on both databases."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.profile.aggregate import (
    DispatchKind,
    IntentStatus,
    continuation_workflow_id,
)
from jobctrl.orchestration.events import ProfileContinuationQueued, ProfileUpdated
from jobctrl.orchestration.use_cases.close_profile_continuation import close_profile_continuation
from jobctrl.orchestration.use_cases.load_profile import load_profile
from jobctrl.orchestration.use_cases.record_profile_dispatches import record_profile_dispatches
from jobctrl.orchestration.use_cases.save_profile import save_profile

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("orchestration/profile_outbox.feature")
STREAM = "profile-local"


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


def _content(skills: str, style: str) -> dict[str, Any]:
    return {
        "contact": {"name": "Ada", "headline": "Engineer"},
        "skills": [{"id": "skills-1", "name": "Skills", "skills": skills.split(",")}],
        "style": {"theme": style},
    }


@given(parsers.parse('the profile was saved with skills "{skills}" and style "{style}"'))
def saved(store: EventStore, clock: FixedClock, skills: str, style: str) -> None:
    save_profile(store, _content(skills, style), clock=clock)


@when(parsers.parse('the profile is saved with skills "{skills}" and style "{style}"'))
def save(store: EventStore, clock: FixedClock, world: World, skills: str, style: str) -> None:
    world.head_before = store.head_position()
    world.saved = save_profile(store, _content(skills, style), clock=clock)


@given("the outbox was drained")
@when("the outbox is drained")
def drain(store: EventStore, clock: FixedClock, world: World) -> None:
    world.head_before = store.head_position()
    world.plan = record_profile_dispatches(store, lambda workflow_id: False, clock=clock)


@when("the outbox is drained while earlier continuations are still running")
def drain_running(store: EventStore, clock: FixedClock, world: World) -> None:
    world.plan = record_profile_dispatches(store, lambda workflow_id: False, clock=clock)


@then(parsers.parse('the save is "{outcome}" at profile version {version:d}'))
def outcome_is(store: EventStore, clock: FixedClock, world: World, outcome: str, version: int) -> None:
    assert world.saved == outcome and load_profile(store).profile_version == version


@then(parsers.parse("the save appended {names} together"))
def appended_together(store: EventStore, world: World, names: str) -> None:
    rows = store.read_all(after=world.head_before)
    assert [r.event_type for r in rows] == [n.strip() for n in names.split(",")]
    assert len({r.occurred_at for r in rows}) == 1 and {r.stream_id for r in rows} == {STREAM}


@then("the save appended nothing")
def appended_nothing(store: EventStore, world: World) -> None:
    assert store.head_position() == world.head_before


@then(parsers.parse('ProfileUpdated lists changed sections "{sections}"'))
def changed(store: EventStore, sections: str) -> None:
    updates = [
        store.registry.decode(r) for r in store.read_stream(STREAM) if r.event_type == "ProfileUpdated"
    ]
    last = updates[-1]
    assert isinstance(last, ProfileUpdated) and last.changed_sections == sections.split(",")


def _queued(store: EventStore) -> list[tuple[ProfileContinuationQueued, str]]:
    rows = store.read_stream(STREAM)
    ids = {r.stream_version: r.event_id for r in rows}
    result = []
    for r in rows:
        event = store.registry.decode(r)
        if isinstance(event, ProfileContinuationQueued):
            result.append((event, ids[r.stream_version - 1]))  # the ProfileUpdated just before it
    return result


@then(parsers.parse("the outbox holds {n:d} intent"))
@then(parsers.parse("the outbox holds {n:d} intents with distinct workflow ids"))
def outbox_holds(store: EventStore, n: int) -> None:
    queued = _queued(store)
    assert len(queued) == n and len({q.workflow_id for q, _ in queued}) == n


@then(
    'every intent\'s workflow id is "profile-continuation-" and 24 hex digits derived from its '
    "ProfileUpdated event id"
)
def deterministic_ids(store: EventStore) -> None:
    for queued, updated_event_id in _queued(store):
        assert queued.profile_event_id == updated_event_id
        assert queued.workflow_id == continuation_workflow_id("local", updated_event_id)
        assert re.fullmatch(r"profile-continuation-[0-9a-f]{24}", queued.workflow_id)


def _intent_for(store: EventStore, version: int) -> Any:
    return next(i for i in load_profile(store).intents.values() if i.profile_version == version)


@then(parsers.parse("the drain starts the intent of profile version {version:d}"))
def starts(store: EventStore, clock: FixedClock, world: World, version: int) -> None:
    intent = _intent_for(store, version)
    assert [(d.kind, d.workflow_id) for d in world.plan] == [(DispatchKind.START, intent.workflow_id)]


@then(parsers.parse("the intent of profile version {version:d} was coalesced into it"))
def coalesced(store: EventStore, clock: FixedClock, version: int) -> None:
    assert _intent_for(store, version).status is IntentStatus.COALESCED


@then("the dispatch intent was committed before the drain returned")
def dispatch_committed(store: EventStore, world: World) -> None:
    types = [r.event_type for r in store.read_all(after=world.head_before)]
    assert types == ["ProfileContinuationCoalesced", "ProfileContinuationDispatchIntended"]


@then(
    parsers.parse(
        "the drain attaches to the intent of profile version {old:d} "
        "and starts the intent of profile version {new:d}"
    )
)
def attaches(store: EventStore, clock: FixedClock, world: World, old: int, new: int) -> None:
    expected = [
        (DispatchKind.ATTACH, _intent_for(store, old).workflow_id),
        (DispatchKind.START, _intent_for(store, new).workflow_id),
    ]
    assert [(d.kind, d.workflow_id) for d in world.plan] == expected


@then("no intent was coalesced")
def none_coalesced(store: EventStore, clock: FixedClock) -> None:
    assert all(i.status is not IntentStatus.COALESCED for i in load_profile(store).intents.values())


@given(parsers.parse('the continuation of profile version {version:d} closed as "{outcome}"'))
def closed_as(store: EventStore, clock: FixedClock, version: int, outcome: str) -> None:
    workflow_id = _intent_for(store, version).workflow_id
    assert close_profile_continuation(store, workflow_id, outcome, recorded_by="workflow", clock=clock)  # type: ignore[arg-type]


@when("the outbox is drained while Temporal no longer knows any continuation")
def drain_purged(store: EventStore, clock: FixedClock, world: World) -> None:
    # "closed" answers for what Temporal says; after retention's purge it knows nothing (never closed)
    world.plan = record_profile_dispatches(store, lambda workflow_id: False, clock=clock)


@then(parsers.parse("the intent of profile version {version:d} is closed"))
def is_closed(store: EventStore, clock: FixedClock, version: int) -> None:
    assert _intent_for(store, version).status is IntentStatus.CLOSED


@when(
    parsers.parse(
        'the continuation of profile version {version:d} closes as "{first}" and then as "{second}"'
    )
)
def closes_twice(
    store: EventStore, clock: FixedClock, world: World, version: int, first: str, second: str
) -> None:
    workflow_id = _intent_for(store, version).workflow_id
    world.closed = [
        close_profile_continuation(store, workflow_id, first, recorded_by="workflow", clock=clock),  # type: ignore[arg-type]
        close_profile_continuation(store, workflow_id, second, recorded_by="outbox_drain", clock=clock),  # type: ignore[arg-type]
    ]


@then(
    parsers.parse(
        'the log holds one ProfileContinuationClosed for profile version {version:d} with outcome "{outcome}"'
    )
)
def one_closed(store: EventStore, clock: FixedClock, world: World, version: int, outcome: str) -> None:
    assert world.closed == [True, False]
    closed = [
        store.registry.decode(r)
        for r in store.read_stream(STREAM)
        if r.event_type == "ProfileContinuationClosed"
    ]
    intent = _intent_for(store, version)
    assert [(c.intent_id, c.workflow_id, c.outcome, c.recorded_by) for c in closed] == [  # type: ignore[attr-defined]
        (intent.intent_id, intent.workflow_id, outcome, "workflow")
    ]


@then("closing a continuation the outbox never dispatched records nothing")
def never_dispatched(store: EventStore, clock: FixedClock) -> None:
    save_profile(store, _content("Python, SQL, Haskell", "classic"), clock=clock)  # queued, never dispatched
    queued = _intent_for(store, 2)
    head = store.head_position()
    assert not close_profile_continuation(
        store, queued.workflow_id, "succeeded", recorded_by="outbox_drain", clock=clock
    )
    assert not close_profile_continuation(
        store, "profile-continuation-unknown", "failed", recorded_by="workflow", clock=clock
    )
    assert store.head_position() == head and queued.status is IntentStatus.QUEUED
