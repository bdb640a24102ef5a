"""``jobctrl worker``: run one worker (starting the embedded dev server when TEMPORAL_ADDRESS is unset)."""

from __future__ import annotations

import asyncio
import gc
import signal
from contextlib import nullcontext

import typer
from temporalio.client import Client

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.composition.sources import import_legacy_sources, registry_catalog
from jobctrl.runtime.embedded import DevServer, find_dev_server
from jobctrl.runtime.following import following_projections
from jobctrl.runtime.settings import EnvSettings, SavedSettings, TemporalTarget
from jobctrl.runtime.storage import open_configured_database
from jobctrl.runtime.worker import WorkerRuntime


async def _announce(runtime: WorkerRuntime) -> None:
    await runtime.ready.wait()
    # (0 while the freeze waits for a running projection step to end: it is made then)
    typer.echo(
        f"worker ready; {gc.get_freeze_count():,} start-up objects frozen out of the cyclic GC's "
        "full collections (ADR 0426)"
    )


async def _serve(task_queue: str | None, projections: bool = False) -> None:
    target = TemporalTarget.from_env()
    queue = task_queue or target.task_queue
    server: DevServer | None = None
    # The embedded defaults: a dev server `jobctrl serve` (or another worker) on this home started,
    # else one of our own, whose address is written under $JOBCTRL_HOME (ADR 0134).
    address = target.address or find_dev_server()
    if address is None:
        server = DevServer.launch(namespace=target.namespace)
        client = await server.wait_ready()
        typer.echo(f"embedded Temporal dev server at {server.address} (database {server.db_file})")
    else:
        client = await Client.connect(address, namespace=target.namespace)
    db = open_configured_database()
    store = EventStore(db, registry())
    # The saved settings document, seeded by the configuration until one is saved (ADR 0135).
    settings = SavedSettings(db, EnvSettings())
    # The real activities; sources are the source registry's (read on every plan).  A legacy
    # $JOBCTRL_HOME/sources.json is registered once and retired (ADR 0150).
    store.create_schema()
    imported = import_legacy_sources(store, jobctrl_home(), clock=SystemClock())
    if imported is not None:
        typer.echo(f"imported {imported} source(s) from sources.json (now sources.json.imported)")
    comp = Composition.build(db, store, sources=registry_catalog(store))
    runtime = WorkerRuntime(
        client=client,
        db=db,
        store=store,
        settings=settings,
        spend=comp.spend,
        task_queue=queue,
        namespace=target.namespace,
        overrides=comp.activities(),
        targets=comp.facts,
        freeze_startup=True,  # this process is the worker's own (ADR 0426)
    )
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, runtime.stop)
    announce = asyncio.create_task(_announce(runtime))
    try:
        typer.echo(f"worker on task queue {queue!r}" + (" (folding the read models)" if projections else ""))
        with following_projections(db) if projections else nullcontext():
            await runtime.run()
    finally:
        announce.cancel()
        comp.close()
        db.dispose()
        if server is not None:
            server.stop()


def worker(
    task_queue: str = typer.Option(None, "--task-queue", help="Task queue (default: jobctrl-default)."),
    projections: bool = typer.Option(
        False, "--projections", help="Also keep the read models current (the projection runner in a thread)."
    ),
) -> None:
    """Run one JobCtrl worker until interrupted."""
    asyncio.run(_serve(task_queue, projections))
