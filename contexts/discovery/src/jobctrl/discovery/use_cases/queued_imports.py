"""The jobs imported from a URL that no Discover execution has taken up yet (ADR 0286, ADR 0309).

A URL import records its job with ``importedUrl`` in the job's metadata and, in the same commit, a
``JobImportQueued`` on the one import-queue stream.  Until the job is a member of a Discover execution
it is queued: the next execution's plan links it as observed, and its terminal enrichment and
preparation fan-out prepare it like any posting the run found.

Read bounded by the imports, never by the log (ADR 0309): the queue stream, then the queued jobs'
own ``DiscoveryExecutionMemberLinked`` events through the store's ``job_id`` index.
"""

from __future__ import annotations

from datetime import datetime

from jobctrl.discovery.events import DiscoveryExecutionMemberLinked, JobImportQueued
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.ids import deterministic_id
from jobctrl.kernel.store import EventStore

IMPORT_QUEUE = "discovery-import-queue"


def queued_import(job_id: str, url: str, now: datetime, tenant_id: str) -> NewEvent:
    """The queue entry of a job a URL import just created (written with its ``JobDiscovered``)."""
    event = JobImportQueued(job_id=job_id, url=url, queued_at=isoformat(now))
    return NewEvent.of(
        event, occurred_at=now, tenant_id=tenant_id, event_id=deterministic_id("import-queued", job_id)
    )


def unprepared_imports(store: EventStore) -> list[str]:
    queued: dict[str, None] = {}
    for row in store.read_stream(IMPORT_QUEUE):
        event = store.registry.decode(row)
        assert isinstance(event, JobImportQueued)
        queued.setdefault(event.job_id, None)
    if not queued:
        return []
    linked: set[str] = set()
    for row in store.read_jobs(list(queued), [DiscoveryExecutionMemberLinked.event_type]):
        link = store.registry.decode(row)
        assert isinstance(link, DiscoveryExecutionMemberLinked)
        linked.add(link.job_id)
    return [job_id for job_id in queued if job_id not in linked]
