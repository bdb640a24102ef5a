"""Step definitions for features/kernel/appending.feature."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import AppendRequest, AppendResult, ConcurrencyConflict, Database, EventStore

pytestmark = pytest.mark.both_databases
scenarios("kernel/appending.feature")
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _events(count: int) -> list[NewEvent]:
    return [
        NewEvent.of(
            JobDiscovered(
                job_id=f"job-{i}",
                posting_url=f"https://jobs.example/{i}",
                source="lever:acme",
                employer="Acme",
                metadata={},
                discovered_at="2026-03-01T00:00:00.000Z",
            ),
            occurred_at=NOW,
        )
        for i in range(count)
    ]


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


@dataclass
class World:
    """What an appending scenario has done: the batch it appended first and where it landed, the last
    append's result or conflict, and the ids of the events in the order they were appended."""

    batch: tuple[str, list[NewEvent]] | None = None
    first: AppendResult | None = None
    result: AppendResult | list[AppendResult] | None = None
    error: ConcurrencyConflict | None = None
    order: list[str] = field(default_factory=list)

    def attempt(self, action: Callable[[], AppendResult | list[AppendResult]]) -> None:
        try:
            self.result = action()
        except ConcurrencyConflict as exc:
            self.error = exc


@pytest.fixture
def world() -> World:
    return World()


@given("an empty job log", target_fixture="store")
def empty_log(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


@given(parsers.parse('{count:d} JobDiscovered event was appended to stream "{stream}"'))
@given(parsers.parse('{count:d} JobDiscovered events were appended to stream "{stream}"'))
def appended(store: EventStore, count: int, stream: str) -> None:
    store.append(stream, None, _events(count))


@given(parsers.parse('a batch of {count:d} JobDiscovered events was appended to stream "{stream}"'))
def appended_batch(store: EventStore, world: World, count: int, stream: str) -> None:
    world.batch = (stream, _events(count))
    world.first = store.append(stream, 0, world.batch[1])


@when(
    parsers.parse('{count:d} JobDiscovered events are appended to stream "{stream}" expecting version {v:d}')
)
@when(parsers.parse('{count:d} JobDiscovered event is appended to stream "{stream}" expecting version {v:d}'))
def append_expecting(store: EventStore, world: World, count: int, stream: str, v: int) -> None:
    world.attempt(lambda: store.append(stream, v, _events(count)))


@when("the same batch is appended again")
def append_again(store: EventStore, world: World) -> None:
    assert world.batch is not None
    stream, batch = world.batch
    world.result = store.append(stream, 0, batch)


@when(
    parsers.parse(
        'one batch appends to stream "{a}" expecting version {va:d} '
        'and to stream "{b}" expecting version {vb:d}'
    )
)
def append_two(store: EventStore, world: World, a: str, va: int, b: str, vb: int) -> None:
    world.attempt(
        lambda: store.append_batch([AppendRequest(a, va, _events(1)), AppendRequest(b, vb, _events(1))])
    )


@when(parsers.parse('events are appended to streams "a", "b", "a", "c" in that order'))
def append_interleaved(store: EventStore, world: World) -> None:
    world.order = []
    for stream in ["a", "b", "a", "c"]:
        [new] = _events(1)
        store.append(stream, None, [new])
        world.order.append(new.event_id)


@then(parsers.parse('stream "{stream}" is at version {version:d}'))
def stream_at(store: EventStore, stream: str, version: int) -> None:
    assert store.stream_version(stream) == version


@then(parsers.parse("the log holds {count:d} events"))
@then(parsers.parse("the log holds {count:d} event"))
def log_holds(store: EventStore, count: int) -> None:
    assert len(store.read_all(limit=10_000)) == count


@then("the append is refused as a concurrency conflict")
def refused(world: World) -> None:
    assert isinstance(world.error, ConcurrencyConflict)


@then("the retry reports the stored positions")
def stored_positions(world: World) -> None:
    assert isinstance(world.result, AppendResult) and world.first is not None
    assert world.result.idempotent_replay and world.result.positions == world.first.positions


@then("reading the whole log returns them in that order with growing positions")
def whole_log(store: EventStore, world: World) -> None:
    rows = store.read_all()
    assert [r.meta().event_id for r in rows] == world.order
    positions = [r.position for r in rows]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
