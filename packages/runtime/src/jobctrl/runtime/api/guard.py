"""The API's front door, app-wide (ADR 0100): one ASGI middleware that every route, present and future,
sits behind.

For every HTTP request:

1. ``Host`` must name this server (the loopback names, the bind name, the configured extra names):
   anything else is a DNS-rebinding attempt or a misdirected request, ``421 misdirected_request``.
2. With a token configured, every route but the dashboard's pages and assets (``pages.PATHS``) and
   ``/v1/health`` needs ``Authorization: Bearer`` with that token (compared in constant time).  The
   token is never read from a URL.  The one exception is the dashboard's live stream: ``EventSource``
   cannot send headers, so the dashboard trades the token for an HttpOnly, SameSite=Strict session
   cookie (``POST /v1/session``) that is good for ``GET /v1/events/stream`` only.
3. A mutating request (POST, PUT, PATCH, DELETE) whose ``Origin`` is not this server's own, or that a
   browser marks ``Sec-Fetch-Site: cross-site``, is ``403 cross_origin_refused``; a body, or any
   ``Content-Type``, must be ``application/json`` (``415 unsupported_media_type``), so a form or
   ``text/plain`` post from another site never reaches a route.
4. A NUL in the path or a query parameter is ``422 invalid_request`` naming it (no route can store or
   search for one; PostgreSQL refuses NUL in text).
5. A body larger than the cap (1 MiB by default) is ``413 payload_too_large``, refused from its
   ``Content-Length`` or, when it streams, as soon as the cap is passed, and always before parsing.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgspec
from starlette.datastructures import Headers, QueryParams
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.runtime.api import pages

MIN_TOKEN_LENGTH: Final = 32
DEFAULT_MAX_BODY_BYTES: Final = 1024 * 1024
LOOPBACK_HOSTS: Final[frozenset[str]] = frozenset({"localhost", "127.0.0.1", "::1", "testserver"})
PUBLIC_PATHS: Final[frozenset[str]] = pages.PATHS | {"/v1/health"}
STREAM_PATH: Final = "/v1/events/stream"
SESSION_PATH: Final = "/v1/session"
SESSION_COOKIE: Final = "jobctrl_session"
SESSION_TTL_S: Final = 12 * 3600
MAX_SESSIONS: Final = 1000
MUTATING: Final[frozenset[str]] = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_WILDCARD_BINDS: Final[frozenset[str]] = frozenset({"0.0.0.0", "::", ""})
_encoder = msgspec.json.Encoder()


def checked_token(token: str | None) -> str | None:
    """The API token, or ``None`` for none; a weak or placeholder token is a configuration error."""
    if token is None or token == "":
        return None
    if token.strip() in ("None", "null", "none", "NULL", "undefined"):
        raise ConfigurationError(f"JOBCTRL_API_TOKEN is the placeholder {token.strip()!r}, not a secret")
    if len(token) < MIN_TOKEN_LENGTH:
        raise ConfigurationError(
            f"JOBCTRL_API_TOKEN must be at least {MIN_TOKEN_LENGTH} characters (got {len(token)}); "
            "make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"
        )
    return token


def host_name(raw: str | None) -> str | None:
    """The name part of a ``Host`` header (``[::1]:8787`` is ``::1``), lower-cased; ``None`` if malformed."""
    if not raw:
        return None
    raw = raw.strip().lower()
    if raw.startswith("["):
        end = raw.find("]")
        if end < 0 or (raw[end + 1 :] and not re.fullmatch(r":\d{1,5}", raw[end + 1 :])):
            return None
        return raw[1:end]
    name, _, port = raw.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


def allowed_hosts(bind: str | None = None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The loopback names, the bind name (unless it is a wildcard) and ``extra``."""
    names = set(LOOPBACK_HOSTS)
    if bind and bind not in _WILDCARD_BINDS:
        names.add(bind.strip("[]").lower())
    names.update(n.strip().strip("[]").lower() for n in extra if n.strip())
    return frozenset(names)


class Sessions:
    """Dashboard stream sessions: random ids held only as SHA-256 digests, with an expiry."""

    def __init__(self, ttl_s: float = SESSION_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._expiry: OrderedDict[bytes, float] = OrderedDict()

    def open(self) -> str:
        session = secrets.token_urlsafe(32)
        self._expiry[hashlib.sha256(session.encode()).digest()] = time.monotonic() + self.ttl_s
        while len(self._expiry) > MAX_SESSIONS:
            self._expiry.popitem(last=False)
        return session

    def valid(self, session: str | None) -> bool:
        if not session:
            return False
        digest = hashlib.sha256(session.encode()).digest()
        expiry = self._expiry.get(digest)
        if expiry is None:
            return False
        if expiry < time.monotonic():
            del self._expiry[digest]
            return False
        return True


@dataclass(frozen=True)
class GuardConfig:
    hosts: frozenset[str]
    token: str | None
    max_body_bytes: int
    sessions: Sessions


def _cookie(headers: Headers, name: str) -> str | None:
    for part in headers.get("cookie", "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _json_media_type(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def _nul_parameter(path: str, query_string: bytes) -> str | None:
    """The first path or query parameter holding a NUL (PostgreSQL text refuses it), or ``None``."""
    if "\x00" in path:
        return "path"
    if b"%00" not in query_string and b"\x00" not in query_string:
        return None
    for key, value in QueryParams(query_string).multi_items():
        if "\x00" in key or "\x00" in value:
            return f"query.{key.replace(chr(0), '')}"
    return None


async def _refuse(send: Send, status: int, code: str, message: str, extra: Mapping[str, str] = {}) -> None:
    body = _encoder.encode({"error": {"code": code, "message": message}})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: ASGIApp, config: GuardConfig) -> None:
        self.app = app
        self.config = config
        self._expected = f"Bearer {config.token}".encode() if config.token else None

    def _authorized(self, headers: Headers, path: str, method: str) -> bool:
        if self._expected is None or path in PUBLIC_PATHS:
            return True
        presented = headers.get("authorization", "").encode()
        if hmac.compare_digest(presented, self._expected):
            return True
        return (
            path == STREAM_PATH
            and method == "GET"
            and self.config.sessions.valid(_cookie(headers, SESSION_COOKIE))
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        raw_host = headers.get("host")
        if host_name(raw_host) not in self.config.hosts:
            await _refuse(send, 421, "misdirected_request", "this server does not answer to that Host")
            return
        method: str = scope["method"]
        path: str = scope["path"]
        if not self._authorized(headers, path, method):
            await _refuse(send, 401, "unauthorized", "a valid bearer token is required",
                          {"www-authenticate": "Bearer"})  # fmt: skip
            return
        bad = _nul_parameter(path, scope.get("query_string", b""))
        if bad is not None:
            await _refuse(send, 422, "invalid_request", f"{bad}: a NUL cannot be stored or searched for")
            return
        if method in MUTATING:
            origin = headers.get("origin")
            scheme = scope.get("scheme", "http")
            if origin is not None and origin.lower() != f"{scheme}://{raw_host}".lower():
                await _refuse(send, 403, "cross_origin_refused", "requests from another origin are refused")
                return
            if headers.get("sec-fetch-site") == "cross-site":
                await _refuse(send, 403, "cross_origin_refused", "cross-site requests are refused")
                return
        length = headers.get("content-length")
        cap = self.config.max_body_bytes
        if length is not None and (not length.isdigit() or int(length) > cap):
            await _refuse(send, 413, "payload_too_large", f"request bodies are limited to {cap} bytes")
            return
        content_type = headers.get("content-type")
        has_body = (length is not None and int(length) > 0) or "transfer-encoding" in headers
        sends_body = content_type is not None or has_body
        if method in MUTATING and sends_body and not _json_media_type(content_type or ""):
            await _refuse(send, 415, "unsupported_media_type", "send the body as application/json")
            return
        if not has_body:
            await self.app(scope, receive, send)
            return
        # Read the body here, up to the cap, so an oversized stream is refused before any parsing.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                await _refuse(send, 413, "payload_too_large", f"request bodies are limited to {cap} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class RedactQueryStrings(logging.Filter):
    """Access-log lines keep the query's keys and drop its values (``?since=[redacted]``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args: Any = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and "?" in args[2]:
            record.args = (*args[:2], redact_query(args[2]), *args[3:])
        return True


def redact_query(path: str) -> str:
    base, _, query = path.partition("?")
    keys = [part.partition("=")[0] for part in query.split("&") if part]
    return base + "?" + "&".join(f"{key}=[redacted]" for key in keys)


def redact_access_log() -> None:
    """Install the redacting filter on uvicorn's access logger (once)."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactQueryStrings) for f in logger.filters):
        logger.addFilter(RedactQueryStrings())
