"""The hub's direct write to an SSE connection served by uvicorn's h11 protocol (ADR 0385).

The stream's bytes on the wire are HTTP/1.1 chunks (``size CRLF data CRLF``), which h11 frames the
same way for every body message and keeps no count of.  So once the response has started, the hub
may write a batch's pre-framed chunk to the connection's transport itself, byte for byte what
``send`` would have written, without waking the client's task or running h11 per client.  It does
so only while that is exactly equivalent: the request was a ``GET`` over HTTP/1.1 (chunked framing),
the response is under way and not complete, the client's own task is not in a ``send`` (``busy``),
the client did not disconnect and uvicorn's flow control has not paused writing.  Otherwise
``write`` refuses and the batch takes the queued path, where ``send`` awaits the socket's drain:
a slow client's transport buffer never grows past uvicorn's high-water mark plus one chunk, and its
bounded queue cuts it off as before (ADR 0075).

``RAW_SEND`` is the scope key under which the app keeps the server's own ``send`` (before any
middleware wraps it); anything but uvicorn's h11 cycle gets no writer and the queued path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RAW_SEND = "jobctrl.raw_send"


_H11_CYCLE = ("uvicorn.protocols.http.h11_impl", "RequestResponseCycle")


class H11Writer:
    __slots__ = ("_cycle", "busy", "started")

    def __init__(self, cycle: Any) -> None:
        self._cycle = cycle
        self.busy = False  # the client's task is in a ``send`` of its own
        self.started = False  # the response head went out through ``send``

    @classmethod
    def of(cls, scope: Mapping[str, Any]) -> H11Writer | None:
        """A writer for this request's connection, or None when the direct write would not be the
        same bytes (not uvicorn's h11 cycle, not ``GET``, not HTTP/1.1)."""
        cycle = getattr(scope.get(RAW_SEND), "__self__", None)
        kind = type(cycle)
        if (kind.__module__, kind.__qualname__) != _H11_CYCLE or scope.get("method") != "GET":
            return None
        if scope.get("http_version") != "1.1" or not all(
            hasattr(cycle, name) for name in ("transport", "flow", "disconnected", "response_complete")
        ):
            return None
        return cls(cycle)

    def write(self, framed: bytes) -> bool:
        cycle = self._cycle
        if self.busy or not self.started or cycle.disconnected or cycle.response_complete:
            return False
        if cycle.flow.write_paused:
            return False
        cycle.transport.write(framed)
        return True
