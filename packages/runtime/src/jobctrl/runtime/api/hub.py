"""One shared poller feeding every SSE client.

The hub reads new ``job_events`` rows once per tick, whatever the number of connected clients, and
fans each batch out to bounded per-client queues.  A client whose queue is full is not allowed to
stall the others: it is cut off with a ``reconnect`` frame carrying the last id it was sent, and
its browser's EventSource resumes from there (``Last-Event-ID``).

A client that resumes from an older position is first served from the database (a per-connection
catch-up read, not a per-tick read) and then joins the live feed; positions already sent are
skipped, so the join is seamless and nothing is sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from jobctrl.kernel.events import StoredEvent
from jobctrl.kernel.store import EventStore

log = logging.getLogger(__name__)
Batch = tuple[StoredEvent, ...]
_CLOSED: Batch = ()


class ClientLagged(Exception):
    """The client fell too far behind; it must reconnect from ``last_position``."""

    def __init__(self, last_position: int) -> None:
        super().__init__(f"client lagged; reconnect from {last_position}")
        self.last_position = last_position


@dataclass
class HubStats:
    ticks: int = 0
    db_reads: int = 0
    events_broadcast: int = 0
    clients_cut_off: int = 0
    catch_up_reads: int = 0


@dataclass(eq=False)
class _Client:
    queue: asyncio.Queue[Batch]
    overflowed: bool = False
    last_sent: int = 0


@dataclass
class EventHub:
    store: EventStore
    poll_interval: float = 0.25
    batch_size: int = 1000
    queue_batches: int = 64
    head: int = 0
    stats: HubStats = field(default_factory=HubStats)
    _clients: set[_Client] = field(default_factory=set)
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _stopping: bool = False

    async def start(self) -> None:
        self.head = await asyncio.to_thread(self.store.head_position)
        self._task = asyncio.create_task(self._run(), name="jobctrl-sse-hub")

    async def stop(self) -> None:
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
            with contextlib.suppress(asyncio.QueueFull):
                client.queue.put_nowait(_CLOSED)

    def poke(self) -> None:
        """Poll now instead of at the next tick (e.g. on a PostgreSQL NOTIFY)."""
        self._wake.set()

    @property
    def client_count(self) -> int:
        return len(self._clients)

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed read must not kill the feed for everyone
                log.exception("SSE hub tick failed; retrying")
            if self._stopping:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_interval)
            self._wake.clear()

    async def tick(self) -> int:
        """Read everything new (in pages) once and fan it out; returns the number of events."""
        self.stats.ticks += 1
        total = 0
        while True:
            self.stats.db_reads += 1
            rows = await asyncio.to_thread(self.store.read_all, self.head, self.batch_size)
            if not rows:
                return total
            batch = tuple(rows)
            self.head = batch[-1].position
            total += len(batch)
            self.stats.events_broadcast += len(batch)
            for client in list(self._clients):
                if client.overflowed:
                    continue
                try:
                    client.queue.put_nowait(batch)
                except asyncio.QueueFull:
                    client.overflowed = True
                    self.stats.clients_cut_off += 1
                    with contextlib.suppress(asyncio.QueueEmpty):
                        client.queue.get_nowait()  # make room for the sentinel
                    client.queue.put_nowait(_CLOSED)
            if len(batch) < self.batch_size:
                return total

    async def subscribe(self, after: int | None) -> AsyncIterator[StoredEvent]:
        """Yield events with position > ``after`` (``None``: from the live head), in order.

        Raises ``ClientLagged`` when this client fell too far behind.
        """
        client = _Client(queue=asyncio.Queue(self.queue_batches))
        joined_at = self.head
        if after is None:  # "from the head" means the log's head now, not the hub's last tick
            after = await asyncio.to_thread(self.store.head_position)
        client.last_sent = after
        self._clients.add(client)
        try:
            while client.last_sent < joined_at:  # catch up from the database, page by page
                self.stats.catch_up_reads += 1
                rows = await asyncio.to_thread(self.store.read_all, client.last_sent, self.batch_size)
                rows = [r for r in rows if r.position <= joined_at]
                if not rows:
                    break
                for row in rows:
                    client.last_sent = row.position
                    yield row
            while True:
                batch = await client.queue.get()
                if batch is _CLOSED or not batch:
                    if client.overflowed:
                        raise ClientLagged(client.last_sent)
                    return
                for row in batch:
                    if row.position > client.last_sent:
                        client.last_sent = row.position
                        yield row
        finally:
            self._clients.discard(client)
