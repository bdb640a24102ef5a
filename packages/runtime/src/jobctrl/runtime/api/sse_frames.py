"""What the SSE hub sends: a row's frame, a poll's batch encoded once, one wake-up's delivery.

``event_frame`` encodes a row once; ``EncodedBatch`` holds one poll's frames, joins them once per
tenant for every client that wakes for them, and frames that join once as an HTTP/1.1 chunk for
every client the hub writes to directly (ADR 0385).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from jobctrl.kernel.events import StoredEvent
from jobctrl.runtime.api.stream_privacy import stream_payload

_encoder = msgspec.json.Encoder()


def event_frame(row: StoredEvent) -> bytes:
    """``id`` = log position, ``event`` = eventType, ``data`` = the envelope with the allowlisted
    payload (ADR 0104: ids, versions and codes; never personal data) and ``jobId`` if any."""
    payload = msgspec.json.decode(row.payload)
    if not isinstance(payload, dict):
        payload = {}
    envelope: dict[str, object] = {
        "eventType": row.event_type,
        "tenantId": row.tenant_id,
        "occurredAt": row.occurred_at,
        "payload": stream_payload(row.event_type, payload),
    }
    job_id = payload.get("jobId")
    if isinstance(job_id, str):
        envelope["jobId"] = job_id
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (
        row.position,
        row.event_type.encode(),
        _encoder.encode(envelope),
    )


class EncodedBatch:
    """One poll's rows in log order, each encoded once; shared by reference by every client."""

    __slots__ = ("_framed", "_joined", "frames", "positions", "tenants")

    def __init__(self, rows: Sequence[StoredEvent], frames: Sequence[bytes]) -> None:
        self.positions = tuple(r.position for r in rows)
        self.tenants = tuple(r.tenant_id for r in rows)
        self.frames = tuple(frames)
        self._joined: dict[str, bytes] = {}
        self._framed: dict[str, bytes] = {}

    @property
    def last_position(self) -> int:
        return self.positions[-1]

    def chunk(self, tenant_id: str, after: int) -> bytes:
        """This tenant's frames with a position greater than ``after``, as one write.

        The whole batch (the usual case) is joined once per tenant and the same ``bytes`` object is
        returned to every client; only a client that joined inside the batch gets a fresh slice.
        """
        if after < self.positions[0]:
            joined = self._joined.get(tenant_id)
            if joined is None:
                joined = self._joined[tenant_id] = self._join(tenant_id, 0)
            return joined
        return self._join(tenant_id, bisect_right(self.positions, after))

    def framed(self, tenant_id: str) -> bytes:
        """This tenant's whole batch as one HTTP/1.1 chunk (``size CRLF data CRLF``), framed once and
        shared by every direct-written client of the tenant; ``b""`` when the tenant has no frame."""
        framed = self._framed.get(tenant_id)
        if framed is None:
            data = self.chunk(tenant_id, -1)
            framed = self._framed[tenant_id] = b"%x\r\n%s\r\n" % (len(data), data) if data else b""
        return framed

    def _join(self, tenant_id: str, start: int) -> bytes:
        return b"".join(
            f for f, t in zip(self.frames[start:], self.tenants[start:], strict=True) if t == tenant_id
        )


@dataclass(frozen=True)
class Delivery:
    """What one wake-up hands a client: its frames (maybe none) and the position they reach."""

    data: bytes
    last_position: int
