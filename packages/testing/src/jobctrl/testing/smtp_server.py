"""A local SMTP server that counts what it accepted: the edge double of an SMTP relay.

``CountingSmtpServer`` runs aiosmtpd on its own thread and event loop, bound to port 0 (it reports
the port it got).  It offers STARTTLS with a throw-away self-signed certificate (made with the
``openssl`` command; ``ca_file`` is what a client must trust) and, when ``username`` is set, requires
AUTH after STARTTLS.  ``accepted`` holds every message whose DATA the server acknowledged: a send
counts once it is there.  ``hold()`` makes the next recipient (``RCPT TO``) wait — the client is
then blocked inside its send, before any message content is handed over — until ``release()``;
``send_started`` says a client has reached that point; ``hold_reply()`` holds the reply to DATA
instead (the message is counted, the client not told: ``data_accepted``).  Used by the Apply features and the
reliability figures.
"""

from __future__ import annotations

import asyncio
import ssl
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """(cert, key) for ``127.0.0.1``/``localhost``, valid one day."""
    cert, key = directory / "smtp-cert.pem", directory / "smtp-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@dataclass
class _Handler:
    server: CountingSmtpServer

    async def handle_RCPT(  # noqa: N802 (aiosmtpd hook)
        self, server: Any, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        # A held server stops the client here: the send has begun, no message has been handed over.
        self.server.send_started.set()
        while self.server._held.is_set():
            await asyncio.sleep(0.02)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:  # noqa: N802
        self.server.accepted.append(envelope)
        # A reply-held server has the message (it counts) but the client does not know yet.
        self.server.data_accepted.set()
        while self.server._reply_held.is_set():
            await asyncio.sleep(0.02)
        return "250 OK"


@dataclass
class CountingSmtpServer:
    directory: Path
    username: str | None = None
    password: str | None = None
    starttls: bool = True
    accepted: list[Envelope] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)
    send_started: threading.Event = field(default_factory=threading.Event)
    port: int = 0
    ca_file: Path | None = None
    data_accepted: threading.Event = field(default_factory=threading.Event)
    _held: threading.Event = field(default_factory=threading.Event)
    _reply_held: threading.Event = field(default_factory=threading.Event)
    _loop: asyncio.AbstractEventLoop | None = None
    _server: asyncio.Server | None = None
    _thread: threading.Thread | None = None

    def _authenticate(
        self, server: Any, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == self.username
            and auth_data.password.decode() == self.password
        )
        if ok:
            self.logins.append(str(self.username))
        return AuthResult(success=ok, handled=False)

    def start(self) -> CountingSmtpServer:
        tls: ssl.SSLContext | None = None
        if self.starttls:
            cert, key = self_signed_certificate(self.directory)
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(cert, key)
            self.ca_file = cert
        handler = _Handler(self)
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def factory() -> SMTP:
            return SMTP(
                handler,
                hostname="localhost",
                tls_context=tls,
                require_starttls=tls is not None,
                authenticator=self._authenticate if self.username else None,
                auth_required=bool(self.username),
                auth_require_tls=True,
            )

        async def serve() -> None:
            self._server = await loop.create_server(factory, "127.0.0.1", 0)
            self.port = int(self._server.sockets[0].getsockname()[1])
            ready.set()

        async def shut() -> None:
            if self._server is not None:
                self._server.close()
                await self._server.wait_closed()
            tasks = [t for t in asyncio.all_tasks(loop) if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        def run() -> None:
            asyncio.set_event_loop(loop)
            loop.run_until_complete(serve())
            loop.run_forever()
            loop.run_until_complete(shut())
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="counting-smtp", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the local SMTP server did not start")
        return self

    def hold(self) -> None:
        self.send_started.clear()
        self._held.set()

    def hold_reply(self) -> None:
        """Accept (and count) the next message but keep its 250 reply until ``release()``; the
        client is then blocked after the send, before it can record that it sent."""
        self.data_accepted.clear()
        self._reply_held.set()

    def release(self) -> None:
        self._held.clear()
        self._reply_held.clear()

    def stop(self) -> None:
        self.release()
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop = self._thread = None  # stopping twice is a no-op


@contextmanager
def counting_smtp_server(
    directory: Path, *, username: str | None = None, password: str | None = None, starttls: bool = True
) -> Iterator[CountingSmtpServer]:
    server = CountingSmtpServer(directory, username=username, password=password, starttls=starttls).start()
    try:
        yield server
    finally:
        server.stop()
