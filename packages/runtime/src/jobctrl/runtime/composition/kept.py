"""A job's facts the activities read, kept while their streams are unchanged (ADR 0396).

Score, Tailor and Cover each read the same few facts of a job: its ``JobScore`` (eligibility, the
keywords and the requirements), its ``PostingEnrichment`` (the posting page's text), its
``JobDiscovered`` fact (title, employer, the board's description) and the saved profile.  Each was
a read of its own on every use.  ``KeptJobFacts`` asks the store once per use, in one statement,
for the current version of every stream the use needs (``MAX(stream_version)`` per stream id, and
the position of the job's first ``JobDiscovered`` row), and answers a kept fold only when its
version is the stored one; any other version (a write by this process or another one since) is
loaded again.  No time-to-live: the check is against the store on every use, as for the profile
(ADR 0376).  The log is append-only, so the same stream version is the same fold, and the same
first ``JobDiscovered`` position is the same fact.

The kept objects are shared by the activity threads and only read: nothing here may record on them
(a use case that changes a score or a job loads its own aggregate, as before).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jobctrl.discovery import discovered_job_at
from jobctrl.discovery.events import JobDiscovered
from jobctrl.enrichment import PostingEnrichment
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.store import EventStore
from jobctrl.scoring import JobScore

CAPACITY = 1_024  # jobs kept, least recently used out first
_DISCOVERED = ""  # the key of the first JobDiscovered position in the answer (no stream id is empty)


def current_versions(
    store: EventStore, stream_ids: Sequence[str], discovered_of: str | None
) -> dict[str, int]:
    """The current version of each stream (absent: 0) and, under ``""``, the position of
    ``discovered_of``'s first ``JobDiscovered`` row (absent: 0): one statement, one snapshot."""
    m = store.db.mark
    parts: list[str] = []
    params: list[Any] = []
    if stream_ids:
        marks = ", ".join([m] * len(stream_ids))
        parts.append(
            "SELECT stream_id, MAX(stream_version) FROM job_events"
            f" WHERE stream_id IN ({marks}) GROUP BY stream_id"
        )
        params.extend(stream_ids)
    if discovered_of is not None:
        parts.append(f"SELECT {m}, MIN(position) FROM job_events WHERE job_id = {m} AND event_type = {m}")
        params.extend([_DISCOVERED, discovered_of, JobDiscovered.event_type])
    if not parts:
        return {}
    found = {str(key): int(value or 0) for key, value in store.db.fetch(" UNION ALL ".join(parts), params)}
    return {key: found.get(key, 0) for key in [*stream_ids, *([_DISCOVERED] if discovered_of else [])]}


@dataclass
class _Job:
    score: tuple[int, JobScore | None] | None = None
    enrichment: tuple[int, PostingEnrichment | None] | None = None
    discovered: tuple[int, JobDiscovered | None] | None = None


@dataclass(frozen=True)
class JobFactsRead:
    """What one use read, each as stored at that use."""

    score: JobScore | None
    enrichment: PostingEnrichment | None
    discovered: JobDiscovered | None
    versions: dict[str, int]  # the stream versions the use's statement answered (none: no statement)


class KeptJobFacts:
    def __init__(self, store: EventStore, capacity: int = CAPACITY) -> None:
        self.store = store
        self.capacity = capacity
        self._jobs: OrderedDict[str, _Job] = OrderedDict()
        self._lock = threading.Lock()
        self.loads = 0  # folds and fact reads done (the tests' count of misses)

    def _job(self, job_id: str) -> _Job:
        with self._lock:
            job = self._jobs.pop(job_id, None) or _Job()
            self._jobs[job_id] = job
            while len(self._jobs) > self.capacity:
                self._jobs.popitem(last=False)
            return job

    def read(
        self,
        job_id: str,
        *,
        score: bool = False,
        enrichment: bool = False,
        discovered: bool = False,
        also: Sequence[str] = (),
    ) -> JobFactsRead:
        """The wanted facts of ``job_id`` as stored now; ``also`` adds other streams' versions to the
        same statement (the profile's), answered in :attr:`JobFactsRead.versions`."""
        wanted = [slot for slot, on in (("score", score), ("enrichment", enrichment),
                                          ("discovered", discovered)) if on]  # fmt: skip
        job = self._job(job_id)
        if all(getattr(job, slot) is None for slot in wanted):
            # Nothing of the job kept yet: read each fact as a use did before, keyed by the version
            # (position) it was read at; no statement of versions first.
            versions: dict[str, int] = {}
        else:
            streams = [*also]
            if score:
                streams.append(JobScore.stream_id_for(job_id))
            if enrichment:
                streams.append(PostingEnrichment.stream_id_for(job_id))
            versions = current_versions(self.store, streams, job_id if discovered else None)
        found_score = found_enrichment = found_discovered = None
        if score:
            version = versions.get(JobScore.stream_id_for(job_id))
            found_score = self._fold(job, "score", JobScore, job_id, version)
        if enrichment:
            version = versions.get(PostingEnrichment.stream_id_for(job_id))
            found_enrichment = self._fold(job, "enrichment", PostingEnrichment, job_id, version)
        if discovered:
            position = versions.get(_DISCOVERED)
            kept = job.discovered
            if kept is not None and position is not None and kept[0] == position:
                found_discovered = kept[1]
            else:
                at = discovered_job_at(self.store, job_id)
                self.loads += 1
                job.discovered = (0, None) if at is None else at
                found_discovered = None if at is None else at[1]
        return JobFactsRead(found_score, found_enrichment, found_discovered, versions)

    def _fold(self, job: _Job, slot: str, cls: type[Any], job_id: str, version: int | None) -> Any:
        """The kept fold when ``version`` (the store's, just asked) is its version; else a load."""
        kept = getattr(job, slot)
        if kept is not None and version is not None and kept[0] == version:
            return kept[1]
        loaded = None if version == 0 else AggregateRepository.for_class(self.store, cls).load(job_id)
        self.loads += 1
        # Kept at the version it was loaded at (a write since the statement is a later version).
        setattr(job, slot, (0 if loaded is None else loaded.version, loaded))
        return loaded
