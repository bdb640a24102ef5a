"""The SSE hub at the object level: one read and one encode per batch, whole batches per wake-up,
slow clients cut off without losing a frame, resume joins without gaps or repeats (ADR 0051, 0075)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api.hub import ClientLagged, Delivery, EventHub, HubClosed, Subscription
from jobctrl.runtime.api.sse import event_stream
from jobctrl.testing.discovered import discovered

pytestmark = [pytest.mark.both_databases, pytest.mark.asyncio]
NOW = datetime(2026, 3, 1, tzinfo=UTC)
_ID = re.compile(rb"^id: (\d+)$", re.M)


@pytest.fixture
def store(database: Database) -> Iterator[EventStore]:
    s = EventStore(database, registry())
    s.create_schema()
    yield s


def _append(store: EventStore, n: int, stream: str, tenant_id: str = "local") -> list[int]:
    events = [discovered(f"job-{stream}-{i}", i, at=NOW, tenant_id=tenant_id) for i in range(n)]
    before = store.head_position()
    store.append(stream, None, events)
    return [r.position for r in store.read_all(before)]


def ids(data: bytes) -> list[int]:
    return [int(m) for m in _ID.findall(data)]


def _hub(store: EventStore, queue_batches: int = 8) -> EventHub:
    hub = EventHub(store, poll_interval=60, queue_batches=queue_batches)  # ticks driven by hand
    hub.head = store.head_position()
    return hub


async def _drain(sub: Subscription) -> tuple[list[int], ClientLagged | None]:
    """Everything the subscription hands over without waiting, and how it ended (if it did)."""
    got: list[int] = []
    while True:
        try:
            delivery = await sub.next(0)
        except ClientLagged as lag:
            return got, lag
        if delivery is None:
            return got, None
        got.extend(ids(delivery.data))


async def test_database_reads_per_tick_do_not_grow_with_clients(store: EventStore) -> None:
    """One read per tick feeds 1 client or 200 alike."""

    async def reads_with(clients: int) -> tuple[int, list[int]]:
        hub = _hub(store)
        subs = [await hub.subscribe(None) for _ in range(clients)]
        assert hub.client_count == clients
        _append(store, 3, f"job-reads-{clients}")
        before = hub.stats.db_reads
        await hub.tick()
        reads = hub.stats.db_reads - before
        got = [(await s.next(0)) for s in subs]
        for sub in subs:
            sub.close()
        assert hub.client_count == 0
        return reads, [d.last_position for d in got if d is not None]

    reads_1, got_1 = await reads_with(1)
    reads_200, got_200 = await reads_with(200)
    assert reads_1 == reads_200 == 1
    assert len(got_200) == 200 and len(set(got_200)) == 1 and got_200[0] > got_1[0]


async def test_each_batch_is_encoded_once_and_shared_by_every_client(store: EventStore) -> None:
    hub = _hub(store)
    subs = [await hub.subscribe(None) for _ in range(200)]
    positions = _append(store, 3, "job-shared")
    await hub.tick()
    assert hub.stats.frames_encoded == 3  # not 3 x 200
    deliveries = [await s.next(0) for s in subs]
    assert all(isinstance(d, Delivery) for d in deliveries)
    first = deliveries[0]
    assert first is not None and ids(first.data) == positions
    # The very same bytes object goes to every client: nothing re-encoded or re-joined per client.
    assert all(d is not None and d.data is first.data for d in deliveries)
    assert hub.stats.frames_encoded == 3


async def test_a_client_gets_everything_queued_in_one_wake_up_in_order(store: EventStore) -> None:
    hub = _hub(store)
    sub = await hub.subscribe(None)
    expected: list[int] = []
    for i in range(4):  # four ticks before the client wakes up
        expected += _append(store, 2, f"job-burst-{i}")
        await hub.tick()
    delivery = await sub.next(0)
    assert delivery is not None
    assert ids(delivery.data) == expected and delivery.last_position == expected[-1]
    assert await sub.next(0) is None  # nothing left: one wake-up took all four batches
    sub.close()


async def test_a_slow_client_is_cut_off_without_stalling_others_or_losing_a_frame(
    store: EventStore,
) -> None:
    """A client that reads nothing overflows its bounded queue; it resumes from exactly what it got."""
    hub = _hub(store, queue_batches=2)
    slow = await hub.subscribe(None)
    fast = await hub.subscribe(None)
    appended: list[int] = []
    fast_got: list[int] = []
    appended += _append(store, 1, "job-lag-0")
    await hub.tick()
    slow_got, _ = await _drain(slow)  # the slow client reads once, then stalls
    for i in range(1, 6):
        appended += _append(store, 1, f"job-lag-{i}")
        await hub.tick()  # never waits for the stalled client
        got, lag = await _drain(fast)
        assert lag is None
        fast_got += got
    assert fast_got == appended and hub.stats.clients_cut_off == 1
    more, lagged = await _drain(slow)
    assert lagged is not None and more == []  # its queued batches were dropped with the cut-off
    assert lagged.last_position == slow_got[-1] == appended[0]
    # Resuming where it was told to loses nothing and repeats nothing.
    resumed = await hub.subscribe(lagged.last_position)
    rest, lag = await _drain(resumed)
    assert lag is None and slow_got + rest == appended
    for sub in (slow, fast, resumed):
        sub.close()


async def test_resume_catches_up_from_the_database_then_joins_live_without_gaps(store: EventStore) -> None:
    hub = _hub(store)
    old = _append(store, 5, "job-old")
    await hub.tick()
    sub = await hub.subscribe(old[1])  # resume after the second: catch-up read for three rows
    live = _append(store, 3, "job-live")
    await hub.tick()  # queued for the client while it has not caught up yet
    got, lag = await _drain(sub)
    assert lag is None and got == old[2:] + live
    assert hub.stats.catch_up_reads == 1
    sub.close()


async def test_positions_already_handed_out_are_skipped_inside_a_shared_batch(store: EventStore) -> None:
    """A client resuming ahead of the hub's last tick gets only the later part of the next batch."""
    hub = _hub(store)
    positions = _append(store, 4, "job-ahead")  # not ticked yet: the hub's head is behind
    ahead = await hub.subscribe(positions[1])
    behind = await hub.subscribe(positions[0] - 1)
    await hub.tick()
    got_ahead, _ = await _drain(ahead)
    got_behind, _ = await _drain(behind)
    assert got_ahead == positions[2:] and got_behind == positions
    assert ahead.last_sent == behind.last_sent == positions[-1]
    ahead.close()
    behind.close()


async def test_from_the_head_skips_everything_already_in_the_log(store: EventStore) -> None:
    hub = _hub(store)
    _append(store, 2, "job-before")  # in the log, not yet ticked by the hub
    sub = await hub.subscribe(None)
    after = _append(store, 1, "job-after")
    await hub.tick()
    got, _ = await _drain(sub)
    assert got == after
    sub.close()


async def test_each_client_gets_only_its_tenants_frames_from_one_encoded_batch(store: EventStore) -> None:
    hub = _hub(store)
    local = await hub.subscribe(None, "local")
    other = await hub.subscribe(None, "acme")
    mine = _append(store, 2, "job-t1")
    theirs = _append(store, 2, "job-t2", tenant_id="acme")
    await hub.tick()
    assert hub.stats.frames_encoded == 4
    d_local, d_other = await local.next(0), await other.next(0)
    assert d_local is not None and d_other is not None
    assert ids(d_local.data) == mine and ids(d_other.data) == theirs
    assert d_local.last_position == d_other.last_position == theirs[-1]
    local.close()
    other.close()


async def test_stopping_the_hub_ends_every_subscription(store: EventStore) -> None:
    hub = _hub(store, queue_batches=1)
    idle = await hub.subscribe(None)
    full = await hub.subscribe(None)
    positions = _append(store, 1, "job-stop")
    await hub.tick()
    got, _ = await _drain(idle)
    assert got == positions
    await hub.stop()  # ``full`` still has a batch queued: it is replaced by the end marker
    with pytest.raises(HubClosed):
        await idle.next(0)
    with pytest.raises(HubClosed):
        await full.next(0)
    async for _ in idle:  # as an iterator the subscription simply ends
        raise AssertionError("no delivery after the hub stopped")


async def test_a_wait_with_a_timeout_returns_nothing_and_keeps_the_subscription(store: EventStore) -> None:
    hub = _hub(store)
    sub = await hub.subscribe(None)
    assert await sub.next(0.01) is None
    positions = _append(store, 1, "job-late")
    waiter = asyncio.ensure_future(sub.next(5))
    await asyncio.sleep(0)
    await hub.tick()
    delivery = await waiter
    assert delivery is not None and ids(delivery.data) == positions
    sub.close()


async def test_the_stream_writes_one_chunk_per_wake_up_and_a_reconnect_with_the_last_id_handed_out(
    store: EventStore,
) -> None:
    hub = _hub(store, queue_batches=1)
    body = event_stream(hub, None, keepalive_s=60, heartbeat_s=60)
    assert await body.__anext__() == b"retry: 5000\n\n"
    first = asyncio.ensure_future(body.__anext__())  # subscribes, then waits for the hub
    while hub.client_count < 1:
        await asyncio.sleep(0.01)
    sent = _append(store, 2, "job-stream-0")
    await hub.tick()
    assert ids(await first) == sent  # both frames of the batch in one write
    for i in (1, 2):  # the stream is not read meanwhile: the second batch overflows its queue
        _append(store, 1, f"job-stream-{i}")
        await hub.tick()
    frame = await body.__anext__()
    assert frame.startswith(b"event: reconnect\n") and json.loads(frame.split(b"data: ")[1]) == {
        "lastEventId": sent[-1]
    }
    with pytest.raises(StopAsyncIteration):
        await body.__anext__()
    assert hub.client_count == 0
