"""The jobs discovery knows: every job with a ``JobDiscovered`` fact, in discovery order (ADR 0260).

Discovery owns the answer, read from its own fact: a job is discovered once (``Job.discover`` is
idempotent; the fact opens the job's ``job-…`` stream), so the known jobs are the ``job_id`` column of
the ``JobDiscovered`` rows, taken through the store's ``(event_type, position)`` index in keyset pages
of ``page`` rows.  No payload is decoded, no read is unbounded (one page at a time, however large the
log grows), and nothing is silently cut off: the whole-type read this replaces stopped at 1,000,000.
Other event types are never read.
"""

from __future__ import annotations

from collections.abc import Iterator

import sqlalchemy as sa

from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.schema import job_events

#: rows per read: a bound on one transaction's work, not on the answer
PAGE = 1000


def iter_known_job_ids(store: EventStore, *, page: int = PAGE) -> Iterator[str]:
    """Yield each known job id once, oldest discovery first, one bounded page per read (a caller that
    needs only the first few, like the auto-apply candidates, stops early and reads no further)."""
    if page < 1:
        raise ConfigurationError(f"a known-jobs page holds at least one row, not {page}")
    after, seen = 0, set[str]()
    while True:
        with store.db.read() as conn:
            rows = conn.execute(
                sa.select(job_events.c.position, job_events.c.job_id)
                .where(job_events.c.event_type == JobDiscovered.event_type, job_events.c.position > after)
                .order_by(job_events.c.position)
                .limit(page)
            ).all()
        for row in rows:
            if row.job_id and row.job_id not in seen:
                seen.add(row.job_id)
                yield row.job_id
        if len(rows) < page:
            return
        after = rows[-1].position


def known_job_ids(store: EventStore, *, page: int = PAGE) -> list[str]:
    """Every known job id, oldest discovery first (see ``iter_known_job_ids``)."""
    return list(iter_known_job_ids(store, page=page))
