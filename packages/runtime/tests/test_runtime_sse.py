"""The SSE stream over job_events, against a real server."""

from __future__ import annotations

import json
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

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _append(store: EventStore, n: int, stream: str = "job-x") -> None:
    events = [discovered(f"job-{stream}-{i}", i, at=NOW) for i in range(n)]
    store.append(stream, None, events)


def parse_frames(
    lines: Iterator[str], count: int, timeout: float = 30.0, events_only: bool = False
) -> list[dict[str, Any]]:
    """Read SSE frames (blank-line separated) until ``count`` frames (or event frames) were seen."""
    frames: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    deadline = time.monotonic() + timeout
    for line in lines:
        if time.monotonic() > deadline:
            break
        if line == "":
            if current:
                frames.append(current)
                current = {}
                seen = [f for f in frames if "id" in f] if events_only else frames
                if len(seen) >= count:
                    break
            continue
        if line.startswith(":"):
            current.setdefault("comment", line[1:].strip())
            continue
        key, _, value = line.partition(":")
        current[key] = value.lstrip(" ")
    return frames


def _collect(
    url: str, count: int, headers: dict[str, str] | None = None, events_only: bool = False
) -> list[dict[str, Any]]:
    with httpx.stream("GET", url, headers=headers or {}, timeout=30) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return parse_frames(response.iter_lines(), count, events_only=events_only)


def _in_background(fn: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    thread.start()
    return thread, out


def _wait_clients(api: RunningApi, count: int) -> None:
    deadline = time.monotonic() + 30
    while api.services.hub.client_count < count:
        assert time.monotonic() < deadline, (
            f"clients did not connect: {api.services.hub.client_count}/{count}"
        )
        time.sleep(0.02)


def test_one_frame_per_row_with_position_type_and_envelope(api: RunningApi) -> None:
    store = api.services.store
    _append(store, 1, "job-old")  # before the client connects: not backfilled
    thread, out = _in_background(lambda: _collect(f"{api.base_url}/v1/events/stream", 3))
    _wait_clients(api, 1)
    _append(store, 2)
    thread.join(30)
    retry, *events = [f for f in out[0] if "comment" not in f and f.get("event") != "heartbeat"][:3]
    assert retry == {"retry": "5000"}
    assert [int(f["id"]) for f in events] == [2, 3]
    assert {f["event"] for f in events} == {"JobDiscovered"}
    data = json.loads(events[0]["data"])
    assert data["eventType"] == "JobDiscovered" and data["tenantId"] == "local"
    assert data["payload"]["jobId"] == data["jobId"] == "job-job-x-0"


@pytest.mark.parametrize("how", ["header", "query"])
def test_resume_from_last_event_id_or_since(api: RunningApi, how: str) -> None:
    _append(api.services.store, 5)
    url = f"{api.base_url}/v1/events/stream"
    if how == "header":
        frames = _collect(url, 4, headers={"Last-Event-ID": "2"})
    else:
        frames = _collect(url + "?since=2", 4)
    assert [int(f["id"]) for f in frames if "id" in f] == [3, 4, 5]


def test_keepalive_comment_and_heartbeat_with_watermark(api: RunningApi) -> None:
    frames = _collect(f"{api.base_url}/v1/events/stream", 4)
    assert any(f.get("comment") == "keep-alive" for f in frames)
    [beat, *_] = [f for f in frames if f.get("event") == "heartbeat"]
    assert set(json.loads(beat["data"])) == {"watermark", "head", "lastEventId"}


def test_bad_resume_point_is_a_typed_400(api: RunningApi) -> None:
    response = httpx.get(f"{api.base_url}/v1/events/stream?since=-3", timeout=5)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_resume_point"


def test_a_token_guards_everything_but_health(db_url: str) -> None:
    gen = run_api(ApiConfig(database_url=db_url, api_token="s3cret" * 6))
    api = next(gen)
    try:
        assert httpx.get(f"{api.base_url}/v1/health", timeout=5).status_code == 200
        denied = httpx.get(f"{api.base_url}/v1/events/stream?since=x", timeout=5)
        assert denied.status_code == 401 and denied.json()["error"]["code"] == "unauthorized"
        allowed = httpx.get(
            f"{api.base_url}/v1/events/stream?since=x",
            headers={"Authorization": "Bearer " + "s3cret" * 6},
            timeout=5,
        )
        assert allowed.status_code == 400  # past the guard, refused for its bad resume point
    finally:
        next(gen, None)
