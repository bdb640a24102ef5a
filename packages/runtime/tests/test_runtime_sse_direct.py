"""The hub writes live batches to an h11 connection itself (ADR 0385), against a real uvicorn server:
every frame once and in order, the queued path untouched while the socket is writable, and a client
that stops reading is still paused, queued and cut off while the others get every frame, and both
leave the hub once their connections close."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from jobctrl.kernel.store import EventStore
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.testing.discovered import discovered

from .conftest import RunningApi, run_api

NOW = datetime(2026, 3, 1, tzinfo=UTC)
DEADLINE_S = 60.0


@pytest.fixture
def quiet_api(db_url: str) -> Iterator[RunningApi]:
    """No beat during a test (keep-alive 30 s): every live batch may take the direct path."""
    config = ApiConfig(database_url=db_url, sse_poll_s=0.05, keepalive_s=30, heartbeat_s=60, queue_batches=4)
    yield from run_api(config)


def _append(store: EventStore, stream: str, n: int) -> list[int]:
    events = [discovered(f"job-{stream}-{i}", i, at=NOW) for i in range(n)]
    result = store.append(stream, None, events)
    return list(range(result.last_position - n + 1, result.last_position + 1))


def _ids(url: str, done: Any, out: list[int]) -> None:
    """Stream until ``done(out)`` holds for the frame ids read so far (or the deadline passed)."""
    deadline = time.monotonic() + DEADLINE_S
    with httpx.stream("GET", url, timeout=DEADLINE_S) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("id: "):
                out.append(int(line[4:]))
                if done(out):
                    return
            if time.monotonic() > deadline:
                return


def _await(condition: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def _readers(api: RunningApi, n: int, done: Any) -> tuple[list[threading.Thread], list[list[int]]]:
    url = f"{api.base_url}/v1/events/stream"
    got: list[list[int]] = [[] for _ in range(n)]
    threads = [threading.Thread(target=_ids, args=(url, done, out), daemon=True) for out in got]
    for thread in threads:
        thread.start()
    return threads, got


def test_live_batches_go_straight_to_the_socket_once_each_in_order(quiet_api: RunningApi) -> None:
    hub, store = quiet_api.services.hub, quiet_api.services.store
    threads, got = _readers(quiet_api, 2, lambda out: len(out) >= 30)
    _await(lambda: hub.client_count == 2, "the clients did not subscribe")
    queued_before = hub.stats.queued
    appended: list[int] = []
    for i in range(3):  # three commits: each wakes the hub, which writes the batch to both sockets
        appended += _append(store, f"direct-{i}", 10)
        expected = len(appended)
        _await(lambda n=expected: all(len(g) >= n for g in got), "a batch did not arrive")
    for thread in threads:
        thread.join(DEADLINE_S)
    assert got == [appended, appended]
    assert hub.stats.direct_writes >= 6  # at least one per client per commit, whatever the ticks
    assert hub.stats.queued == queued_before  # nothing took the queued path while both read


def test_a_client_that_stops_reading_is_paused_queued_and_cut_off_while_others_get_everything(
    quiet_api: RunningApi,
) -> None:
    hub, store = quiet_api.services.hub, quiet_api.services.store
    host, port = quiet_api.base_url.removeprefix("http://").split(":")
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: it fills fast
    stalled.connect((host, int(port)))
    stalled.sendall(f"GET /v1/events/stream HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    last: list[int] = []  # the last position appended, once the flood is over
    threads, got = _readers(quiet_api, 1, lambda out: bool(last) and out[-1] >= last[0])
    try:
        _await(lambda: hub.client_count == 2, "the clients did not subscribe")
        appended: list[int] = []
        # 500 frames per commit until the stalled socket's kernel buffer (up to tcp_wmem's 4 MiB) and
        # its transport's high-water mark are full, then its queue of 4: a cut-off, never a stall.
        for i in range(120):
            appended += _append(store, f"flood-{i}", 500)
            time.sleep(0.02)  # separate commits, separate batches (pacing only; nothing asserted)
            if hub.stats.clients_cut_off:
                break
        last.append(store.head_position() + 1)  # one more commit, which the reader stops at
        appended += _append(store, "flood-end", 1)
        _await(lambda: hub.stats.clients_cut_off == 1, "the stalled client was never cut off")
        threads[0].join(DEADLINE_S)
        assert got[0] == appended  # the reader got every frame, in order, once
        assert hub.stats.queued >= 4  # the stalled client's batches were queued once its socket paused
    finally:
        stalled.close()
    _await(lambda: hub.client_count == 0, "a closed connection stayed subscribed")
