"""``GET /v1/events/stream``: one SSE frame per job_events row.

Frame: ``id`` = log position, ``event`` = eventType, ``data`` = the envelope
``{eventType, tenantId, occurredAt, payload, jobId?}``.  The stream opens with ``retry: 5000``; a
comment keeps the connection alive every 15 s and a ``heartbeat`` event carries the watermark every
30 s.  Resume from ``Last-Event-ID`` or ``?since=``; with neither, the stream starts at the head
(no backfill).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

import msgspec

from jobctrl.kernel.events import StoredEvent
from jobctrl.runtime.api.hub import ClientLagged, EventHub

RETRY_MS = 5000
_encoder = msgspec.json.Encoder()


def event_frame(row: StoredEvent) -> bytes:
    envelope: dict[str, object] = {
        "eventType": row.event_type,
        "tenantId": row.tenant_id,
        "occurredAt": row.occurred_at,
        "payload": msgspec.Raw(row.payload),
    }
    job_id = msgspec.json.decode(row.payload).get("jobId") if b'"jobId"' in row.payload else None
    if isinstance(job_id, str):
        envelope["jobId"] = job_id
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (
        row.position,
        row.event_type.encode(),
        _encoder.encode(envelope),
    )


async def event_stream(
    hub: EventHub,
    after: int | None,
    *,
    tenant_id: str = "local",
    keepalive_s: float = 15.0,
    heartbeat_s: float = 30.0,
    watermark: Callable[[], int] | None = None,
) -> AsyncIterator[bytes]:
    yield b"retry: %d\n\n" % RETRY_MS
    source = hub.subscribe(after).__aiter__()
    last_sent = hub.head if after is None else after  # refined by the first event sent
    next_keepalive = time.monotonic() + keepalive_s
    next_heartbeat = time.monotonic() + heartbeat_s
    pending: asyncio.Task[StoredEvent] | None = None
    try:
        while True:
            if pending is None:
                pending = asyncio.ensure_future(source.__anext__())
            timeout = max(0.0, min(next_keepalive, next_heartbeat) - time.monotonic())
            done, _ = await asyncio.wait({pending}, timeout=timeout)
            now = time.monotonic()
            if pending in done:
                task, pending = pending, None
                try:
                    row = task.result()
                except StopAsyncIteration:
                    return
                except ClientLagged as lag:
                    yield b"event: reconnect\ndata: %s\n\n" % _encoder.encode(
                        {"lastEventId": lag.last_position}
                    )
                    return
                last_sent = row.position
                if row.tenant_id == tenant_id:
                    yield event_frame(row)
                continue
            if now >= next_heartbeat:
                mark = watermark() if watermark is not None else hub.head
                body = {"watermark": mark, "head": hub.head, "lastEventId": last_sent}
                yield b"event: heartbeat\ndata: %s\n\n" % _encoder.encode(body)
                next_heartbeat = now + heartbeat_s
                next_keepalive = now + keepalive_s
            elif now >= next_keepalive:
                yield b": keep-alive\n\n"
                next_keepalive = now + keepalive_s
    finally:
        if pending is not None:
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, ClientLagged):
                await pending
        await source.aclose()  # type: ignore[attr-defined]


def parse_resume_point(last_event_id: str | None, since: str | None) -> int | None:
    """``Last-Event-ID`` wins over ``?since=``; both must be non-negative integers."""
    raw = last_event_id if last_event_id not in (None, "") else since
    if raw in (None, ""):
        return None
    assert raw is not None
    if not raw.isdigit() or len(raw) > 18:
        raise ValueError("resume point must be a non-negative integer position")
    return int(raw)
