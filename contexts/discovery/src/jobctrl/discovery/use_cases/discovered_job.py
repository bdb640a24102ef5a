"""One job's ``JobDiscovered`` fact, found by its job id (ADR 0260).

Discovery's own read of its own fact, through the store's ``job_id`` index: the first row of that
type for the job (a job is discovered once), decoded by the registry (upcast like any other read).
"""

from __future__ import annotations

import sqlalchemy as sa

from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.schema import job_events


def discovered_job(store: EventStore, job_id: str) -> JobDiscovered | None:
    with store.db.read() as conn:
        row = conn.execute(
            sa.select(job_events.c.payload, job_events.c.schema_version, job_events.c.position)
            .where(job_events.c.job_id == job_id, job_events.c.event_type == JobDiscovered.event_type)
            .order_by(job_events.c.position)
            .limit(1)
        ).first()
    if row is None:
        return None
    payload = row.payload if isinstance(row.payload, bytes) else str(row.payload).encode()
    event = store.registry.decode_payload(JobDiscovered.event_type, payload, row.schema_version, row.position)
    assert isinstance(event, JobDiscovered)
    return event
