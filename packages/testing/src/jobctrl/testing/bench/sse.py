"""The live event stream under load: one real uvicorn server, clients in a separate process.

The API (``create_app``) runs under uvicorn in a thread of this process on a temporary SQLite file;
the clients are bare asyncio protocols in a child process (``python -m jobctrl.testing.bench.sse_clients``).
Once the server's hub counts every client as subscribed, this process appends events (committed
through ``EventStore`` like any writer) and records each commit time; the child records when every
client read each frame's ``id`` line.  Both clocks are the same host's wall clock.

Phases, in the same run and interleaved (ADR 0230; 3 rounds unless ``JOBCTRL_BENCH_ROUNDS``): 1 client
(the issue's baseline), ``JOBCTRL_BENCH_SSE_CLIENTS`` (default 1,000) and the bare fan-out floor at
as many clients; figures are medians of the rounds.

* ``sse.p99_ms_1_client`` / ``sse.p99_ms``: append-committed -> received, p99 over every client and
  event; ``sse.p99_ratio_vs_1_client``.
* ``sse.p99_ms_bare_fanout``: the same, against the bare fan-out floor (``fanout.BareFanout``: a plain
  asyncio server writing the same frame bytes to as many loopback sockets, read by the same client
  process); ``sse.p99_ratio_vs_bare_fanout`` is ours at N over the floor at N (ADR 0385).
* ``sse.db_reads_per_tick_1_client`` / ``sse.db_reads_per_tick``: the hub's own counters
  (``EventHub.stats``) over each phase; ``sse.db_reads_ratio_vs_1_client`` must stay ~1 (flat).
"""

from __future__ import annotations

import json
import os
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

import uvicorn

from jobctrl.discovery.events import JobHidden
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.hub import event_frame
from jobctrl.testing.bench.fanout import BareFanout
from jobctrl.testing.bench.method import interleave, rounds
from jobctrl.testing.bench.sse_clients import CONNECT_TIMEOUT_S, DRAIN_TIMEOUT_S

DEFAULT_CLIENTS = 1000
DEFAULT_EVENTS = 12
EVENT_SPACING_S = float(os.environ.get("JOBCTRL_BENCH_SSE_SPACING_S", "0.5"))


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


class _Api:
    """The subject: appends committed through ``EventStore``, delivered by the API's hub."""

    def __init__(self, url: str, hub: Any, store: Any) -> None:
        self.url, self.hub, self.store = url, hub, store

    @property
    def client_count(self) -> int:
        return int(self.hub.client_count)

    def reads(self) -> tuple[int, int]:
        return self.hub.stats.ticks, self.hub.stats.db_reads

    def emit(self, i: int) -> tuple[int, float]:
        new = NewEvent.of(
            JobHidden(job_id=f"bench-{i}", reason="bench", hidden_at="2026-01-01T00:00:00.000Z"),
            occurred_at=datetime.now(UTC),
        )
        result = self.store.append(f"bench-{i}", None, [new])
        return result.last_position, time.time()


class _Floor:
    """The baseline: the bare fan-out (``fanout.BareFanout``) writing the API's own frame bytes."""

    def __init__(self, floor: BareFanout, frame: bytes) -> None:
        self.url = f"http://127.0.0.1:{floor.port}/v1/events/stream"
        self.floor = floor
        self.body = frame.split(b"\n", 1)[1]  # the frame after its ``id:`` line
        self.position = 0

    @property
    def client_count(self) -> int:
        return self.floor.client_count

    def reads(self) -> tuple[int, int]:
        return 0, 0

    def emit(self, i: int) -> tuple[int, float]:
        self.position += 1
        return self.position, self.floor.emit(b"id: %d\n" % self.position + self.body)


def _run_phase(subject: _Api | _Floor, clients: int, events: int) -> _Phase:
    child = subprocess.Popen(
        [sys.executable, "-m", "jobctrl.testing.bench.sse_clients", subject.url, str(clients), str(events)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + CONNECT_TIMEOUT_S
        while subject.client_count < clients:
            if time.monotonic() > deadline or child.poll() is not None:
                raise RuntimeError(f"only {subject.client_count} of {clients} SSE clients connected")
            time.sleep(0.05)
        ticks0, reads0 = subject.reads()
        committed: dict[int, float] = {}
        for i in range(events):
            position, at = subject.emit(i)
            committed[position] = at
            time.sleep(EVENT_SPACING_S)
        out, _ = child.communicate(timeout=DRAIN_TIMEOUT_S + CONNECT_TIMEOUT_S)
        ticks1, reads1 = subject.reads()
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
    ticks, reads = ticks1 - ticks0, reads1 - reads0
    return _Phase(_p99(latencies), reads / max(ticks, 1), len(latencies), clients * events)


def run(results: dict[str, Any]) -> None:
    clients = int(os.environ.get("JOBCTRL_BENCH_SSE_CLIENTS", DEFAULT_CLIENTS))
    events = int(os.environ.get("JOBCTRL_BENCH_SSE_EVENTS", DEFAULT_EVENTS))
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-sse-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        db = open_database(url)
        store = EventStore(db, registry())
        store.create_schema()
        # As `jobctrl serve` runs it: the start-up heap frozen once the API is up (ADR 0450).
        app = create_app(ApiConfig(database_url=url, freeze_startup=True))
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
            api = _Api(f"http://127.0.0.1:{port}/v1/events/stream", hub, store)
            # Interleaved rounds (ADR 0230): 1 client, N clients, the bare floor at N, then reversed,
            # each a fresh phase; the floor writes the frame the hub encoded for this suite's event.
            api.emit(-1)
            frame = event_frame(store.read_all(0, 1)[0])
            phases: dict[str, list[_Phase]] = {"one": [], "many": [], "bare": []}

            def phase(name: str, subject: _Api | _Floor, count: int) -> Callable[[int], float]:
                def measure(_round: int) -> float:
                    result = _run_phase(subject, count, events)
                    phases[name].append(result)
                    return result.p99_ms

                return measure

            with BareFanout() as floor:
                bare = _Floor(floor, frame)
                subjects = {
                    "one": phase("one", api, 1),
                    "many": phase("many", api, clients),
                    "bare": phase("bare", bare, clients),
                }
                samples = interleave(subjects, rounds(3))
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            db.dispose()
    many, one = phases["many"], phases["one"]
    results["sse.clients"] = clients
    results["sse.p99_ms_1_client"] = samples.median("one")
    results["sse.p99_ms"] = samples.median("many")
    results["sse.p99_ratio_vs_1_client"] = samples.ratio("many", "one")
    results["sse.p99_ms_bare_fanout"] = samples.median("bare")
    results["sse.p99_ratio_vs_bare_fanout"] = samples.ratio("many", "bare")
    results["sse.bare_fanout_delivered_fraction"] = sum(p.received for p in phases["bare"]) / max(
        sum(p.expected for p in phases["bare"]), 1
    )
    results["sse.delivered_fraction"] = sum(p.received for p in many) / max(sum(p.expected for p in many), 1)
    results["sse.db_reads_per_tick_1_client"] = statistics.median(p.reads_per_tick for p in one)
    results["sse.db_reads_per_tick"] = statistics.median(p.reads_per_tick for p in many)
    results["sse.db_reads_ratio_vs_1_client"] = results["sse.db_reads_per_tick"] / max(
        results["sse.db_reads_per_tick_1_client"], 1e-6
    )
