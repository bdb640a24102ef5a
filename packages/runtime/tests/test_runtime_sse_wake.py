"""The SSE hub wakes on a commit, not at its next poll, and wakes idle clients with one beat
(ADR 0235): a commit through any store over the same log in this process, and the hub's beat for
keep-alives (the PostgreSQL ``LISTEN`` is in the kernel's notify tests), with the poll set to a minute so only
the wake-up can deliver within the deadline."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import pytest_asyncio

from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.kernel.store.commits import CommitSignals
from jobctrl.runtime.api.hub import EventHub
from jobctrl.runtime.api.sse import event_stream
from jobctrl.testing.discovered import discovered

pytestmark = pytest.mark.asyncio
DEADLINE_S = 5.0
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _event(n: int) -> NewEvent:
    return discovered(f"wake-{n}", n, at=NOW)


@pytest_asyncio.fixture
async def hub(database: Database) -> AsyncIterator[EventHub]:
    store = EventStore(database, registry())
    store.create_schema()
    hub = EventHub(store, poll_interval=60)  # the poll alone would deliver in a minute
    await hub.start()
    yield hub
    await hub.stop()


@pytest.mark.both_databases
async def test_a_commit_through_another_store_over_the_same_log_wakes_the_hub(
    hub: EventHub, db_url: str
) -> None:
    sub = await hub.subscribe(None)
    other = open_database(db_url)  # another Database object, as a second writer in the process has
    try:
        writer = EventStore(other, registry())
        await asyncio.to_thread(writer.append, "wake-a", None, [_event(1)])
        with_transaction = EventStore(other, registry())

        def in_transaction() -> None:
            with with_transaction.transaction() as tx:
                tx.append("wake-b", None, [_event(2)])

        await asyncio.to_thread(in_transaction)
        got: list[bytes] = []
        async with asyncio.timeout(DEADLINE_S):
            while sum(chunk.count(b"id: ") for chunk in got) < 2:
                delivery = await sub.next()
                assert delivery is not None
                got.append(delivery.data)
    finally:
        sub.close()
        other.dispose()


@pytest.mark.both_databases
async def test_a_refused_append_wakes_nobody(hub: EventHub) -> None:
    sub = await hub.subscribe(None)
    with pytest.raises(ValueError):
        hub.store.append("wake-empty", None, [])
    assert await sub.next(0.2) is None  # nothing committed: nothing to hand over
    sub.close()


async def test_a_failing_listener_never_fails_the_writer_and_others_still_hear() -> None:
    signals = CommitSignals()
    heard: list[int] = []

    def broken(_position: int) -> None:
        raise RuntimeError("reader bug")

    undo = signals.subscribe("log", broken)
    signals.subscribe("log", heard.append)
    signals.publish("log", 7)
    signals.publish("log", 0)  # nothing appended: nobody is called
    undo()
    signals.publish("log", 8)
    signals.publish("other-log", 9)
    assert heard == [7, 8]


@pytest.mark.both_databases
async def test_the_beat_wakes_an_idle_stream_for_its_keepalive_without_a_timer_of_its_own(
    database: Database,
) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    hub = EventHub(store, poll_interval=60, beat_s=0.05)
    await hub.start()
    try:
        body = event_stream(hub, None, keepalive_s=0.1, heartbeat_s=60)
        assert await body.__anext__() == b"retry: 5000\n\n"
        async with asyncio.timeout(DEADLINE_S):
            assert await body.__anext__() == b": keep-alive\n\n"
        await body.aclose()
    finally:
        await hub.stop()
