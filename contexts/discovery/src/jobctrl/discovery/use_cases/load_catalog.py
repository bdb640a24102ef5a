"""Build the dedupe catalog by folding the discovery facts of the log."""

from __future__ import annotations

from typing import get_args

from jobctrl.discovery.domain.content import shingles
from jobctrl.discovery.domain.dedupe import JobCatalog, KnownJob
from jobctrl.discovery.domain.identity import CanonicalIdentity
from jobctrl.discovery.events import AtsKind, JobDiscovered
from jobctrl.kernel.store import EventStore

PAGE = 5000
ATS_KINDS: frozenset[str] = frozenset(get_args(AtsKind))


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
    kind = str(meta.get("atsKind", "other"))
    identity = CanonicalIdentity(
        canonical_url=str(meta.get("canonicalUrl", event.posting_url)),
        ats_kind=kind if kind in ATS_KINDS else "other",  # type: ignore[arg-type]
        source_native_id=str(meta.get("sourceNativeId", "")),
        confidence=0.0,  # not used for lookups
    )
    return KnownJob(
        job_id=event.job_id,
        canonical_url=identity.canonical_url,
        native_key=identity.native_key,
        employer=event.employer,
        fingerprint=str(meta.get("contentFingerprint", "")),
        shingles=shingles(str(meta.get("description", ""))),
    )
