"""``jobctrl serve``: the HTTP API (loopback by default; any other bind needs a token)."""

from __future__ import annotations

import asyncio
import ipaddress
import os

import typer
import uvicorn

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.guard import allowed_hosts, checked_token
from jobctrl.runtime.embedded import DevServer, find_dev_server
from jobctrl.runtime.settings import TemporalTarget
from jobctrl.runtime.storage import configured_database_url, open_configured_database


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_config(host: str, token: str | None, address: str, namespace: str) -> ApiConfig:
    """What ``jobctrl serve`` runs: the configured database, the projections caught up in the
    background, and its start-up heap frozen, since the process is the server's own (ADR 0450)."""
    return ApiConfig(
        database_url=configured_database_url(),  # the database the worker and the CLI open
        api_token=token,
        allowed_hosts=allowed_hosts(host, os.environ.get("JOBCTRL_API_ALLOWED_HOSTS", "").split(",")),
        temporal_address=address,
        temporal_namespace=namespace,
        run_projections=True,
        freeze_startup=True,
    )


def serve(
    host: str = typer.Option(
        "127.0.0.1", help="Bind address; anything but loopback needs JOBCTRL_API_TOKEN."
    ),
    port: int = typer.Option(8787, min=1, max=65535),
) -> None:
    """Serve the API, the SSE stream and the dashboard.

    The API answers only to the loopback names, the bind name and JOBCTRL_API_ALLOWED_HOSTS
    (comma-separated); a token must be at least 32 characters."""
    try:
        token = checked_token(os.environ.get("JOBCTRL_API_TOKEN"))
    except ConfigurationError as exc:
        typer.echo(f"refusing to start: {exc.message}", err=True)
        raise typer.Exit(2) from None
    if not _is_loopback(host) and not token:
        typer.echo(f"refusing to bind {host} without JOBCTRL_API_TOKEN", err=True)
        raise typer.Exit(2)
    target = TemporalTarget.from_env()
    address, server = target.address, None
    if address is None:
        # The embedded defaults: the dev server a worker on this home started, else one of our own
        # on the same history file (ADR 0134), so start and cancel work with no extra setting.
        address = find_dev_server()
        if address is None:
            server = DevServer.launch(namespace=target.namespace)
            asyncio.run(server.wait_ready())
            address = server.address
            typer.echo(f"embedded Temporal dev server at {address} (database {server.db_file})")
        else:
            typer.echo(f"using the embedded Temporal dev server at {address}")
    config = serve_config(host, token, address, target.namespace)
    open_configured_database(url=config.database_url).dispose()  # a missing or replaced database exits 3 here
    try:
        uvicorn.run(create_app(config), host=host, port=port, log_level="info")
    finally:
        if server is not None:
            server.stop()
