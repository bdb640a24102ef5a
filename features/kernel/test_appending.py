"""Step definitions for features/kernel/appending.feature."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import AppendRequest, ConcurrencyConflict, Database, EventStore

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


@pytest.fixture
def ctx() -> dict[str, Any]:
    return {}


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
def appended_batch(store: EventStore, ctx: dict[str, Any], count: int, stream: str) -> None:
    ctx["batch"] = (stream, _events(count))
    ctx["first"] = store.append(stream, 0, ctx["batch"][1])


def _attempt(ctx: dict[str, Any], action: Any) -> None:
    try:
        ctx["result"] = action()
    except ConcurrencyConflict as exc:
        ctx["error"] = exc


@when(
    parsers.parse('{count:d} JobDiscovered events are appended to stream "{stream}" expecting version {v:d}')
)
@when(parsers.parse('{count:d} JobDiscovered event is appended to stream "{stream}" expecting version {v:d}'))
def append_expecting(store: EventStore, ctx: dict[str, Any], count: int, stream: str, v: int) -> None:
    _attempt(ctx, lambda: store.append(stream, v, _events(count)))


@when("the same batch is appended again")
def append_again(store: EventStore, ctx: dict[str, Any]) -> None:
    stream, batch = ctx["batch"]
    ctx["result"] = store.append(stream, 0, batch)


@when(
    parsers.parse(
        'one batch appends to stream "{a}" expecting version {va:d} '
        'and to stream "{b}" expecting version {vb:d}'
    )
)
def append_two(store: EventStore, ctx: dict[str, Any], a: str, va: int, b: str, vb: int) -> None:
    _attempt(
        ctx, lambda: store.append_batch([AppendRequest(a, va, _events(1)), AppendRequest(b, vb, _events(1))])
    )


@when(parsers.parse('events are appended to streams "a", "b", "a", "c" in that order'))
def append_interleaved(store: EventStore, ctx: dict[str, Any]) -> None:
    ctx["order"] = []
    for stream in ["a", "b", "a", "c"]:
        [new] = _events(1)
        store.append(stream, None, [new])
        ctx["order"].append(new.event_id)


@then(parsers.parse('stream "{stream}" is at version {version:d}'))
def stream_at(store: EventStore, stream: str, version: int) -> None:
    assert store.stream_version(stream) == version


@then(parsers.parse("the log holds {count:d} events"))
@then(parsers.parse("the log holds {count:d} event"))
def log_holds(store: EventStore, count: int) -> None:
    assert len(store.read_all(limit=10_000)) == count


@then("the append is refused as a concurrency conflict")
def refused(ctx: dict[str, Any]) -> None:
    assert isinstance(ctx.get("error"), ConcurrencyConflict)


@then("the retry reports the stored positions")
def stored_positions(ctx: dict[str, Any]) -> None:
    assert ctx["result"].idempotent_replay and ctx["result"].positions == ctx["first"].positions


@then("reading the whole log returns them in that order with growing positions")
def whole_log(store: EventStore, ctx: dict[str, Any]) -> None:
    rows = store.read_all()
    assert [r.meta().event_id for r in rows] == ctx["order"]
    positions = [r.position for r in rows]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
