"""Select the enrich rows a resolved condition releases, and nothing else.

When a condition is resolved (e.g. the authenticated LinkedIn browser became ready), only jobs whose
*current* enrichment is blocked by exactly that condition, from the sources the resolution covers, are
selected.  Other robots blocks (other sources), low-confidence blocks, failures and ordinary pending
rows are left alone.
"""

from __future__ import annotations

from collections.abc import Collection

from jobctrl.enrichment.domain.aggregate import PostingEnrichment
from jobctrl.enrichment.domain.readiness import EnrichBlock
from jobctrl.kernel.store import EventStore

PAGE = 1000


def select_blocked_rows(
    store: EventStore, condition: EnrichBlock, *, source_ids: Collection[str] | None = None
) -> list[str]:
    """Job ids currently blocked by ``condition`` (restricted to ``source_ids`` when given), log order."""
    folds: dict[str, PostingEnrichment] = {}
    prefix = PostingEnrichment.stream_id_for("")
    # Only the facts the aggregate folds; other enrichment events never live in these streams.
    names = [cls.event_type for cls in PostingEnrichment._handlers]
    after = 0
    while batch := store.read_all(after=after, limit=PAGE, types=names):
        for row in batch:
            after = row.position
            if not row.stream_id.startswith(prefix):
                continue
            job_id = row.stream_id[len(prefix) :]
            fold = folds.setdefault(job_id, PostingEnrichment(job_id))
            fold.apply(store.registry.decode(row))
    return [
        job_id
        for job_id, fold in folds.items()
        if condition in fold.blocked_by
        and (
            source_ids is None
            or condition is not EnrichBlock.ROBOTS_DISALLOWED
            or fold.blocked_source in source_ids
        )
    ]
