"""One shared poller feeding every SSE client, each batch encoded once.

The hub reads new ``job_events`` rows once per tick, whatever the number of connected clients,
encodes each row of the batch into its SSE frame once (``EncodedBatch``) and hands it to every
client.  A client served by uvicorn's h11 protocol, caught up, with nothing queued and a writable
socket gets the batch written to its connection by the hub itself: one ``transport.write`` of the
tenant's pre-framed chunk, no wake-up of the client's task (ADR 0385).  Every other client (a paused
socket, a catch-up in progress, another server) gets the batch by reference on its bounded queue,
wakes once per batch (or once for everything queued since it last woke) and writes it as one chunk;
the bytes of a whole batch are joined and framed once per tenant and shared by every client.

A client whose queue is full is not allowed to stall the others: its queued batches are dropped and
it is cut off with a ``reconnect`` frame carrying the last position it was actually handed, so its
browser's EventSource resumes from there (``Last-Event-ID``) and nothing is lost.

The hub wakes the moment an append commits: through any store over the same log in this process,
and on PostgreSQL through ``LISTEN`` on the store's notify channel; the poll stays as the fallback
for writers in other processes on SQLite (ADR 0235).  There are no per-client timers: the hub's one
``beat_s`` cadence wakes every idle client, which then writes its keep-alive or heartbeat if due.

A client that resumes from an older position is first served from the database (a per-connection
catch-up read, not a per-tick read) and then joins the live feed; positions already handed out are
skipped, so the join is seamless and nothing is sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from jobctrl.kernel.events import StoredEvent
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.commits import listen_for_commits
from jobctrl.runtime.api.sse_frames import Delivery, EncodedBatch, event_frame

__all__ = ["ClientLagged", "Delivery", "DirectWriter", "EncodedBatch", "EventHub", "HubClosed", "event_frame"]

log = logging.getLogger(__name__)


class ClientLagged(Exception):
    """The client fell too far behind; it must reconnect from ``last_position``."""

    def __init__(self, last_position: int) -> None:
        super().__init__(f"client lagged; reconnect from {last_position}")
        self.last_position = last_position


class HubClosed(Exception):
    """The hub stopped; the stream ends (EventSource reconnects from its last id)."""


@dataclass
class HubStats:
    ticks: int = 0
    db_reads: int = 0
    events_broadcast: int = 0
    frames_encoded: int = 0
    clients_cut_off: int = 0
    direct_writes: int = 0  # batches the hub wrote to a client's connection itself (ADR 0385)
    queued: int = 0  # batches put on a client's queue for its own task
    catch_up_reads: int = 0
    failed_ticks: int = 0
    outages: int = 0  # times reading went from working to failing (each logged once)


_CLOSED = EncodedBatch((), ())  # sentinel: the hub stopped or the client was cut off
_BEAT = EncodedBatch((), ())  # sentinel: the hub's beat woke an idle client (no frames)


class DirectWriter(Protocol):
    """A connection the hub may write a pre-framed chunk to itself (``sse_direct.H11Writer``)."""

    def write(self, framed: bytes) -> bool:
        """Write now and return True, or return False (busy, paused, gone): the hub queues instead."""
        ...


@dataclass(eq=False)
class _Client:
    queue: asyncio.Queue[EncodedBatch]
    tenant_id: str
    last_sent: int = 0
    joined_at: int = 0
    overflowed: bool = False
    writer: DirectWriter | None = None
    wrote_at: float = 0.0  # time.monotonic() of the hub's last direct write


@dataclass
class EventHub:
    store: EventStore
    poll_interval: float = 0.25
    batch_size: int = 1000
    queue_batches: int = 64
    beat_s: float | None = None  # wake idle clients this often (None: clients time their own waits)
    head: int = 0
    stats: HubStats = field(default_factory=HubStats)
    _clients: set[_Client] = field(default_factory=set)
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _stopping: bool = False
    _unsubscribe: list[Callable[[], None]] = field(default_factory=list)
    _listener: asyncio.Task[None] | None = None
    _failing_since: int | None = None  # the failed-tick count when the current outage began

    async def start(self) -> None:
        self.head = await asyncio.to_thread(self.store.head_position)
        loop = asyncio.get_running_loop()
        wake = self._wake

        def committed(_position: int) -> None:  # on the writer's thread: hand the wake-up over
            if not wake.is_set():
                with contextlib.suppress(RuntimeError):  # the loop already closed
                    loop.call_soon_threadsafe(wake.set)

        self._unsubscribe.append(self.store.on_commit(committed))
        if self.store.db.is_postgres:
            db = self.store.db
            self._listener = asyncio.create_task(
                listen_for_commits(db.engine.url, self.store.notify_channel, lambda _p: wake.set()),
                name="jobctrl-sse-listen",
            )
        self._task = asyncio.create_task(self._run(), name="jobctrl-sse-hub")

    async def stop(self) -> None:
        for undo in self._unsubscribe:
            undo()
        self._unsubscribe.clear()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        if self._task is not None:
            # Let an in-flight read finish (a cancelled ``to_thread`` read would keep its thread and
            # its connection past ``db.dispose()``); cancel only if it does not end in time.
            self._stopping = True
            self._wake.set()
            done, _ = await asyncio.wait({self._task}, timeout=max(5.0, 4 * self.poll_interval))
            if not done:
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for client in list(self._clients):
            _close(client.queue)

    def poke(self) -> None:
        """Poll now instead of at the next tick (e.g. on a PostgreSQL NOTIFY)."""
        self._wake.set()

    @property
    def client_count(self) -> int:
        return len(self._clients)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + self.beat_s if self.beat_s else None
        while not self._stopping:
            self._wake.clear()  # before the read: a commit during it wakes the next wait at once
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed read must not kill the feed for everyone
                self._failed()
            else:
                self._recovered()
            if self._stopping:
                return
            timeout = self.poll_interval
            if next_beat is not None and self.beat_s:
                if loop.time() >= next_beat:
                    self._beat()
                    next_beat = loop.time() + self.beat_s
                timeout = max(0.0, min(timeout, next_beat - loop.time()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    def _failed(self) -> None:
        """Log a failing read once per outage (with its traceback), not on every retry."""
        self.stats.failed_ticks += 1
        if self._failing_since is None:
            self._failing_since = self.stats.failed_ticks
            self.stats.outages += 1
            log.exception("SSE hub cannot read the log; retrying every %ss until it can", self.poll_interval)
        else:
            log.debug("SSE hub read still failing", exc_info=True)

    def _recovered(self) -> None:
        if self._failing_since is not None:
            failed = self.stats.failed_ticks - self._failing_since + 1
            self._failing_since = None
            log.warning("SSE hub reads the log again after %d failed reads", failed)

    def _beat(self) -> None:
        """Wake every idle client once (one shared sentinel, no per-client timer)."""
        for client in self._clients:
            if client.queue.empty() and not client.overflowed:
                client.queue.put_nowait(_BEAT)

    def _encode(self, rows: Sequence[StoredEvent]) -> list[bytes]:
        self.stats.frames_encoded += len(rows)
        return [event_frame(r) for r in rows]

    async def tick(self) -> int:
        """Read everything new (in pages) once, encode it once and fan it out; returns the count."""
        self.stats.ticks += 1
        total = 0
        while True:
            self.stats.db_reads += 1
            rows = await asyncio.to_thread(self.store.read_all, self.head, self.batch_size)
            if not rows:
                return total
            # From here to the end of the fan-out nothing awaits: a client registers either before
            # this batch (and gets it) or after ``head`` moved past it (and catches it up itself).
            self.head = rows[-1].position
            total += len(rows)
            self.stats.events_broadcast += len(rows)
            if self._clients:
                self._fan_out(EncodedBatch(rows, self._encode(rows)))
            if len(rows) < self.batch_size:
                return total

    def _fan_out(self, batch: EncodedBatch) -> None:
        """Hand ``batch`` to every client: written straight to the connection of a caught-up client
        with nothing queued and a writable socket (one write, no wake-up of its task), else put on
        its bounded queue for its own task (the path a paused or lagging client takes, ADR 0385)."""
        now, first = time.monotonic(), batch.positions[0]
        direct = queued = 0
        for client in list(self._clients):
            if client.overflowed:
                continue
            writer = client.writer
            if (
                writer is not None
                and client.joined_at <= client.last_sent < first
                and client.queue.empty()
                and ((framed := batch.framed(client.tenant_id)) == b"" or writer.write(framed))
            ):
                client.last_sent = batch.last_position
                client.wrote_at = now
                direct += 1
                continue
            try:
                client.queue.put_nowait(batch)
                queued += 1
            except asyncio.QueueFull:
                client.overflowed = True
                self.stats.clients_cut_off += 1
                _close(client.queue)
        self.stats.direct_writes += direct
        self.stats.queued += queued

    async def subscribe(self, after: int | None, tenant_id: str = "local") -> Subscription:
        """Register a client for positions > ``after`` (``None``: from the log's head now)."""
        if after is None:  # "from the head" means the log's head now, not the hub's last tick
            after = await asyncio.to_thread(self.store.head_position)
        # Registered and stamped with the hub's head in one step (no await in between), so every
        # batch after ``joined_at`` reaches the queue and everything up to it is caught up.
        client = _Client(asyncio.Queue(self.queue_batches), tenant_id, after, self.head)
        self._clients.add(client)
        return Subscription(self, client)

    async def _catch_up(self, client: _Client) -> Delivery | None:
        """One page of the per-connection catch-up read, or None once caught up to ``joined_at``."""
        if client.last_sent >= client.joined_at:
            return None
        self.stats.catch_up_reads += 1
        rows = await asyncio.to_thread(self.store.read_all, client.last_sent, self.batch_size)
        rows = [r for r in rows if r.position <= client.joined_at]
        if not rows:
            client.joined_at = client.last_sent  # nothing more below the join point
            return None
        mine = [r for r in rows if r.tenant_id == client.tenant_id]
        return Delivery(b"".join(self._encode(mine)), rows[-1].position)


def _close(queue: asyncio.Queue[EncodedBatch]) -> None:
    """Drop what is queued and leave the sentinel (the client resumes from what it was handed)."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(_CLOSED)


class Subscription:
    """One client's view of the hub: ``next()`` hands over everything new in one chunk."""

    def __init__(self, hub: EventHub, client: _Client) -> None:
        self._hub = hub
        self._client = client

    @property
    def last_sent(self) -> int:
        return self._client.last_sent

    @property
    def wrote_at(self) -> float:
        """When the hub last wrote to this client's connection itself (0.0: never)."""
        return self._client.wrote_at

    def write_directly(self, writer: DirectWriter) -> None:
        """Let the hub write live batches straight to ``writer`` while nothing is queued."""
        self._client.writer = writer

    async def next(self, timeout: float | None = None) -> Delivery | None:
        """The frames queued since the last call (waiting at most ``timeout`` s; None if none came).

        Catch-up pages come first (read from the database, not subject to ``timeout``).  Raises
        ``ClientLagged`` once the client was cut off, ``HubClosed`` once the hub stopped.
        """
        client = self._client
        if client.last_sent < client.joined_at:
            page = await self._hub._catch_up(client)
            if page is not None:
                client.last_sent = page.last_position
                return page
        queue = client.queue
        if queue.empty():
            if timeout is None:
                first = await queue.get()
            else:
                try:
                    async with asyncio.timeout(timeout):
                        first = await queue.get()
                except TimeoutError:
                    return None
        else:
            first = queue.get_nowait()
        batches = [first]
        while batches[-1] is not _CLOSED and not queue.empty():
            batches.append(queue.get_nowait())
        if _BEAT in batches:
            batches = [b for b in batches if b is not _BEAT]
            if not batches:
                return Delivery(b"", client.last_sent)
        ended = batches[-1] is _CLOSED
        if ended:
            batches.pop()
            if not batches:
                queue.put_nowait(_CLOSED)  # the end is sticky: every later call ends the same way
                if client.overflowed:
                    raise ClientLagged(client.last_sent)
                raise HubClosed()
            queue.put_nowait(_CLOSED)  # hand over what came before; end on the next call
        after, tenant = client.last_sent, client.tenant_id
        chunks = [b.chunk(tenant, after) for b in batches if b.last_position > after]
        client.last_sent = max(after, batches[-1].last_position)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)  # one batch: the shared bytes
        return Delivery(data, client.last_sent)

    def close(self) -> None:
        self._hub._clients.discard(self._client)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Delivery:
        try:
            delivery = await self.next()
        except HubClosed:
            raise StopAsyncIteration from None
        assert delivery is not None  # no timeout
        return delivery
