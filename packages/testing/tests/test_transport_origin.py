"""A socket transport opened in a test names that test in its ``repr``, which is what the
``unclosed transport`` ResourceWarning prints when a leaked one is collected (transport_origin)."""

from __future__ import annotations

import asyncio
import gc
import socket
import warnings

import pytest

from jobctrl.testing.transport_origin import opened_in


@pytest.mark.asyncio
async def test_a_transport_names_the_test_that_opened_it(request: pytest.FixtureRequest) -> None:
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        transport = writer.transport
        assert opened_in(transport) == request.node.nodeid
        assert repr(transport).endswith(f" opened in {request.node.nodeid}>")
        writer.close()
        await writer.wait_closed()
    finally:
        server.close()
        await server.wait_closed()


def test_a_leaked_transports_warning_names_the_test_that_opened_it(request: pytest.FixtureRequest) -> None:
    loop = asyncio.new_event_loop()
    left, right = socket.socketpair()
    try:
        transport, _ = loop.run_until_complete(loop.create_connection(asyncio.Protocol, sock=left))
        transport.close()  # closing, but the loop never runs its connection_lost: the sock stays set
        loop.close()
        del transport
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            gc.collect()
        messages = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
        assert any("unclosed transport" in m and f"opened in {request.node.nodeid}>" in m for m in messages)
    finally:
        right.close()
        left.close()
