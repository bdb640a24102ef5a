"""The SSE bench's client process: N bare HTTP/1.1 clients of one event stream, stdlib only.

Run as ``python -m jobctrl.testing.bench.sse_clients URL COUNT EVENTS``; prints, as JSON, every
frame ``id`` with the wall-clock times the clients read it.  It imports nothing of the application:
under a shared load the API's import graph took longer than the suite's connect deadline (ADR 0385).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import time
from typing import Any
from urllib.parse import urlsplit

_FRAME_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")

# Connecting 1,000 clients to the API took over a minute at load 15 on the 2 shared cores.
CONNECT_TIMEOUT_S = float(os.environ.get("JOBCTRL_BENCH_SSE_CONNECT_S", "240"))
DRAIN_TIMEOUT_S = 15.0

# Each client is a bare asyncio protocol (one HTTP/1.1 GET, frames parsed in ``data_received``), not
# an httpx stream: the figure is the server's append -> client latency, and 1,000 httpx streams in one
# process cost the instrument more per frame (a task wake-up, anyio and h11 per chunk) than the server
# spends (ADR 0235).  Frames arrive whole per write; a frame split across reads is kept for the next.


class _Client(asyncio.Protocol):
    def __init__(self, request: bytes, events: int, received: dict[str, list[float]], done: Any) -> None:
        self._request, self._events, self._received, self._done = request, events, received, done
        self._tail = b""
        self._seen = 0
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self._request)

    def data_received(self, chunk: bytes) -> None:
        now = time.time()
        data = self._tail + chunk
        end = data.rfind(b"\n\n") + 2  # only whole frames; keep a split one for later
        for match in _FRAME_ID.finditer(data, 0, end):
            self._received.setdefault(match.group(1).decode(), []).append(now)
            self._seen += 1
        self._tail = data[end:]
        if self._seen >= self._events and self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._done()


async def _clients(url: str, count: int, events: int) -> dict[str, list[float]]:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    request = (
        f"GET {parts.path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    received: dict[str, list[float]] = {}
    all_done = asyncio.Event()
    finished = 0

    def one_done() -> None:
        nonlocal finished
        finished += 1
        if finished >= count:
            all_done.set()

    loop = asyncio.get_running_loop()
    transports = []
    for i in range(count):
        transport, _ = await loop.create_connection(
            lambda: _Client(request, events, received, one_done), host, port
        )
        transports.append(transport)
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # stagger the connects so the listen backlog never overflows
    # On timeout, report what arrived; the parent computes the delivered fraction.
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_done.wait(), timeout=CONNECT_TIMEOUT_S + DRAIN_TIMEOUT_S)
    for transport in transports:
        transport.close()
    return received


if __name__ == "__main__":
    _url, _count, _events = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(asyncio.run(_clients(_url, _count, _events))))
