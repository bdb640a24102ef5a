"""The bare fan-out floor the SSE figure is compared with (ADR 0291, ADR 0385).

A plain asyncio server on its own event loop in a thread of the bench process, shaped like the API
under uvicorn: it accepts loopback sockets, counts a client once its request head arrived (as the
hub counts a subscriber), and on every tick writes the same SSE frame bytes to every socket with one
``transport.write`` each.  No HTTP framing, no hub, no database read, no per-client task: whatever
the API's 1,000-client p99 costs beyond this floor's, measured in the same round by the same client
process, is the API's own.
"""

from __future__ import annotations

import asyncio
import threading
import time


class _Peer(asyncio.Protocol):
    def __init__(self, server: BareFanout) -> None:
        self._server = server
        self._head: bytes | None = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self._head is None:
            return  # the request head is all a client sends
        self._head += data
        if b"\r\n\r\n" in self._head:
            self._head = None
            assert self.transport is not None
            self._server.peers.add(self.transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self._server.peers.discard(self.transport)


class BareFanout:
    """Start with ``with BareFanout() as floor:``; ``floor.port``, ``floor.client_count``,
    ``floor.emit(frame)`` (returns the wall-clock time the tick was handed over, like a commit)."""

    def __init__(self) -> None:
        self.peers: set[asyncio.Transport] = set()
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="bench-bare-fanout", daemon=True)
        self._stop: asyncio.Event | None = None

    @property
    def client_count(self) -> int:
        return len(self.peers)

    def emit(self, frame: bytes) -> float:
        at = time.time()
        self._loop.call_soon_threadsafe(self._tick, frame)
        return at

    def _tick(self, frame: bytes) -> None:
        for transport in self.peers:
            transport.write(frame)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())
        self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        server = await self._loop.create_server(lambda: _Peer(self), "127.0.0.1", 0, backlog=4096)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stop.wait()
            for transport in list(self.peers):
                transport.close()

    def __enter__(self) -> BareFanout:
        self._thread.start()
        if not self._ready.wait(20):
            raise RuntimeError("the bare fan-out server did not start")
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=10)
