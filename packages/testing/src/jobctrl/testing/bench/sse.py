"""The live event stream under load: one real uvicorn server, clients in a separate process.

The API (``create_app``) runs under uvicorn in a thread of this process on a temporary SQLite file;
the clients are asyncio httpx streams in a child process (``python -m jobctrl.testing.bench.sse``).
Once the server's hub counts every client as subscribed, this process appends events (committed
through ``EventStore`` like any writer) and records each commit time; the child records when every
client read each frame's ``id`` line.  Both clocks are the same host's wall clock.

Phases, in the same run and interleaved (ADR 0230; 3 rounds unless ``JOBCTRL_BENCH_ROUNDS``): 1 client
(the baseline) and ``JOBCTRL_BENCH_SSE_CLIENTS`` (default 1,000); figures are medians of the rounds.

* ``sse.p99_ms_1_client`` / ``sse.p99_ms``: append-committed -> received, p99 over every client and
  event; ``sse.p99_ratio_vs_1_client``.
* ``sse.db_reads_per_tick_1_client`` / ``sse.db_reads_per_tick``: the hub's own counters
  (``EventHub.stats``) over each phase; ``sse.db_reads_ratio_vs_1_client`` must stay ~1 (flat).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import uvicorn

from jobctrl.discovery.events import JobHidden
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.testing.bench.method import interleave, rounds

_FRAME_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")
DEFAULT_CLIENTS = 1000
DEFAULT_EVENTS = 12
EVENT_SPACING_S = float(os.environ.get("JOBCTRL_BENCH_SSE_SPACING_S", "0.5"))
CONNECT_TIMEOUT_S = 60.0
DRAIN_TIMEOUT_S = 15.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


@dataclass
class _Phase:
    p99_ms: float
    reads_per_tick: float
    received: int
    expected: int


def _run_phase(url: str, hub: Any, store: Any, clients: int, events: int) -> _Phase:
    child = subprocess.Popen(
        [sys.executable, "-m", "jobctrl.testing.bench.sse", url, str(clients), str(events)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + CONNECT_TIMEOUT_S
        while hub.client_count < clients:
            if time.monotonic() > deadline or child.poll() is not None:
                raise RuntimeError(f"only {hub.client_count} of {clients} SSE clients connected")
            time.sleep(0.05)
        ticks0, reads0 = hub.stats.ticks, hub.stats.db_reads
        committed: dict[int, float] = {}
        for i in range(events):
            new = NewEvent.of(
                JobHidden(job_id=f"bench-{i}", reason="bench", hidden_at="2026-01-01T00:00:00.000Z"),
                occurred_at=datetime.now(UTC),
            )
            result = store.append(f"bench-{i}", None, [new])
            committed[result.last_position] = time.time()
            time.sleep(EVENT_SPACING_S)
        out, _ = child.communicate(timeout=DRAIN_TIMEOUT_S + CONNECT_TIMEOUT_S)
        ticks, reads = hub.stats.ticks - ticks0, hub.stats.db_reads - reads0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    received: dict[str, list[float]] = json.loads(out)
    latencies = [
        (t - committed[int(pos)]) * 1000
        for pos, times in received.items()
        if int(pos) in committed
        for t in times
    ]
    return _Phase(_p99(latencies), reads / max(ticks, 1), len(latencies), clients * events)


def run(results: dict[str, Any]) -> None:
    clients = int(os.environ.get("JOBCTRL_BENCH_SSE_CLIENTS", DEFAULT_CLIENTS))
    events = int(os.environ.get("JOBCTRL_BENCH_SSE_EVENTS", DEFAULT_EVENTS))
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-sse-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        db = open_database(url)
        store = EventStore(db, registry())
        store.create_schema()
        app = create_app(ApiConfig(database_url=url))
        port = _free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            backlog=4096,
            timeout_graceful_shutdown=2,
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="bench-uvicorn", daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 20
            while not server.started:
                if time.monotonic() > deadline:
                    raise RuntimeError("uvicorn did not start")
                time.sleep(0.05)
            hub = app.state.services.hub
            stream = f"http://127.0.0.1:{port}/v1/events/stream"
            # Interleaved rounds (ADR 0230): 1 client, N clients, then N, 1, ... each a fresh phase.
            phases: dict[str, list[_Phase]] = {"one": [], "many": []}

            def phase(name: str, count: int) -> Callable[[int], float]:
                def measure(_round: int) -> float:
                    result = _run_phase(stream, hub, store, count, events)
                    phases[name].append(result)
                    return result.p99_ms

                return measure

            samples = interleave({"one": phase("one", 1), "many": phase("many", clients)}, rounds(3))
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            db.dispose()
    many, one = phases["many"], phases["one"]
    results["sse.clients"] = clients
    results["sse.p99_ms_1_client"] = samples.median("one")
    results["sse.p99_ms"] = samples.median("many")
    results["sse.p99_ratio_vs_1_client"] = samples.ratio("many", "one")
    results["sse.delivered_fraction"] = sum(p.received for p in many) / max(sum(p.expected for p in many), 1)
    results["sse.db_reads_per_tick_1_client"] = statistics.median(p.reads_per_tick for p in one)
    results["sse.db_reads_per_tick"] = statistics.median(p.reads_per_tick for p in many)
    results["sse.db_reads_ratio_vs_1_client"] = results["sse.db_reads_per_tick"] / max(
        results["sse.db_reads_per_tick_1_client"], 1e-6
    )


# ---------------------------------------------------------------- the client process
#
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
