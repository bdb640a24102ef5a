"""Build the dedupe catalog by folding the discovery facts of the log."""

from __future__ import annotations

from jobctrl.discovery.domain.content import shingles
from jobctrl.discovery.domain.dedupe import JobCatalog, KnownJob
from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.store import EventStore

PAGE = 5000


def load_catalog(store: EventStore) -> JobCatalog:
    catalog = JobCatalog()
    after = 0
    while True:
        rows = store.read_all(after=after, limit=PAGE, types=[JobDiscovered.event_type])
        if not rows:
            return catalog
        for row in rows:
            if row.event_type == JobDiscovered.event_type:
                event = store.registry.decode(row)
                assert isinstance(event, JobDiscovered)
                catalog.add(known_job_from(event))
        after = rows[-1].position


def known_job_from(event: JobDiscovered) -> KnownJob:
    meta = event.metadata
    kind, native = str(meta.get("atsKind", "other")), str(meta.get("sourceNativeId", ""))
    return KnownJob(
        job_id=event.job_id,
        canonical_url=str(meta.get("canonicalUrl", event.posting_url)),
        native_key=(kind, native) if native else None,
        employer=event.employer,
        fingerprint=str(meta.get("contentFingerprint", "")),
        shingles=shingles(str(meta.get("description", ""))),
    )
