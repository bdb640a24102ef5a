"""``jobctrl serve``: the HTTP API (loopback by default; any other bind needs a token)."""

from __future__ import annotations

import ipaddress
import os

import typer
import uvicorn

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import open_database
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.guard import allowed_hosts, checked_token
from jobctrl.runtime.settings import TemporalTarget


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
    target = TemporalTarget.from_env()  # TEMPORAL_ADDRESS unset: the API runs, Temporal actions answer 503
    config = ApiConfig(
        api_token=token,
        allowed_hosts=allowed_hosts(host, os.environ.get("JOBCTRL_API_ALLOWED_HOSTS", "").split(",")),
        temporal_address=target.address,
        temporal_namespace=target.namespace,
        run_projections=True,
    )
    open_database(config.database_url).dispose()  # a missing or replaced database exits 3 here
    uvicorn.run(create_app(config), host=host, port=port, log_level="info")
