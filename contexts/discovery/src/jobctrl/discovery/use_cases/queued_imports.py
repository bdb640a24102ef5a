"""The jobs imported from a URL that no Discover execution has taken up yet (ADR 0286).

A URL import records its job with ``importedUrl`` in the job's metadata.  Until the job is a member of
a Discover execution it is queued: the next execution's plan links it as observed, and its terminal
enrichment and preparation fan-out prepare it like any posting the run found.  Read from the store's
own facts (``JobDiscovered`` and ``DiscoveryExecutionMemberLinked``), in pages.
"""

from __future__ import annotations

from jobctrl.discovery.events import DiscoveryExecutionMemberLinked, JobDiscovered
from jobctrl.kernel.store import EventStore

_TYPES = [JobDiscovered.event_type, DiscoveryExecutionMemberLinked.event_type]
PAGE = 2000


def unprepared_imports(store: EventStore) -> list[str]:
    imported: dict[str, None] = {}
    linked: set[str] = set()
    after = 0
    while rows := store.read_all(after=after, limit=PAGE, types=_TYPES):
        for row in rows:
            event = store.registry.decode(row)
            if isinstance(event, JobDiscovered) and event.metadata.get("importedUrl"):
                imported.setdefault(event.job_id, None)
            elif isinstance(event, DiscoveryExecutionMemberLinked):
                linked.add(event.job_id)
        after = rows[-1].position
    return [job_id for job_id in imported if job_id not in linked]
