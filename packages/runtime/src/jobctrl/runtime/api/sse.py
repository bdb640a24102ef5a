"""``GET /v1/events/stream``: one SSE frame per job_events row.

Frame: ``id`` = log position, ``event`` = eventType, ``data`` = the envelope
``{eventType, tenantId, occurredAt, payload, jobId?}``.  The stream opens with ``retry: 5000``; a
comment keeps the connection alive every 15 s and a ``heartbeat`` event carries the watermark every
30 s.  Resume from ``Last-Event-ID`` or ``?since=``; with neither, the stream starts at the head
(no backfill).
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping

import msgspec
from starlette.responses import StreamingResponse
from starlette.types import Send

from jobctrl.runtime.api.hub import ClientLagged, DirectWriter, EventHub, HubClosed, event_frame
from jobctrl.runtime.api.sse_direct import H11Writer

__all__ = ["RETRY_MS", "EventStreamResponse", "event_frame", "event_stream", "parse_resume_point"]

RETRY_MS = 5000
_encoder = msgspec.json.Encoder()


async def event_stream(
    hub: EventHub,
    after: int | None,
    *,
    tenant_id: str = "local",
    keepalive_s: float = 15.0,
    heartbeat_s: float = 30.0,
    watermark: Callable[[], int] | None = None,
    writer: DirectWriter | None = None,
) -> AsyncGenerator[bytes, None]:
    """The response body: one write per hub batch (frames encoded once by the hub, ADR 0075); with a
    ``writer``, live batches the hub writes to the connection itself (ADR 0385) never pass here."""
    yield b"retry: %d\n\n" % RETRY_MS
    source = await hub.subscribe(after, tenant_id)
    if writer is not None:
        source.write_directly(writer)
    last_sent = source.last_sent  # the resume point, or the log's head when there was none
    next_keepalive = time.monotonic() + keepalive_s
    next_heartbeat = time.monotonic() + heartbeat_s
    try:
        while True:
            # With a beating hub, the hub's one cadence wakes this client: no timer of its own.
            timeout = None if hub.beat_s else max(0.0, min(next_keepalive, next_heartbeat) - time.monotonic())
            try:
                delivery = await source.next(timeout)
            except HubClosed:
                return
            except ClientLagged as lag:
                yield b"event: reconnect\ndata: %s\n\n" % _encoder.encode({"lastEventId": lag.last_position})
                return
            now = time.monotonic()
            next_keepalive = max(next_keepalive, source.wrote_at + keepalive_s)  # the hub's writes
            if delivery is not None:
                last_sent = delivery.last_position
                if delivery.data:
                    yield delivery.data
                    next_keepalive = now + keepalive_s  # frames keep the connection alive
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
        source.close()


class EventStreamResponse(StreamingResponse):
    """``StreamingResponse`` (disconnect watch included) that tells the direct ``writer`` when the
    response is under way and when the client's own task is inside a ``send`` (ADR 0385)."""

    def __init__(
        self, content: AsyncIterator[bytes], writer: H11Writer | None, headers: Mapping[str, str]
    ) -> None:
        super().__init__(content, media_type="text/event-stream", headers=headers)
        self.writer = writer

    async def stream_response(self, send: Send) -> None:
        writer = self.writer
        if writer is None:
            await super().stream_response(send)
            return
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        writer.started = True
        try:
            async for chunk in self.body_iterator:
                writer.busy = True
                try:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                finally:
                    writer.busy = False
            writer.busy = True  # no direct write after the end of the body
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            writer.started = False


def parse_resume_point(last_event_id: str | None, since: str | None) -> int | None:
    """``Last-Event-ID`` wins over ``?since=``; both must be non-negative integers."""
    raw = last_event_id if last_event_id not in (None, "") else since
    if raw in (None, ""):
        return None
    assert raw is not None
    if not raw.isdigit() or len(raw) > 18:
        raise ValueError("resume point must be a non-negative integer position")
    return int(raw)
