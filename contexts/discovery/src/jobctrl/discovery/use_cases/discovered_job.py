"""One job's ``JobDiscovered`` fact, found by its job id (ADR 0260).

Discovery's own read of its own fact, through the store's ``job_id`` index: the first row of that
type for the job (a job is discovered once), decoded by the registry (upcast like any other read).
The statement is driver SQL through ``Database.fetch`` (the same storage check and error mapping as
``Database.read``): Score, Tailor and Cover each ask for it, and SQLAlchemy's statement building and
result objects were most of the read's CPU (ADR 0395).
"""

from __future__ import annotations

from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.store import EventStore


def _first_of_job(mark: str) -> str:
    return (
        "SELECT payload, schema_version, position FROM job_events"
        f" WHERE job_id = {mark} AND event_type = {mark} ORDER BY position LIMIT 1"
    )


def discovered_job(store: EventStore, job_id: str) -> JobDiscovered | None:
    found = discovered_job_at(store, job_id)
    return None if found is None else found[1]


def discovered_job_at(store: EventStore, job_id: str) -> tuple[int, JobDiscovered] | None:
    """The fact with its row's position (a reader that keeps it checks the position, ADR 0396)."""
    rows = store.db.fetch(_first_of_job(store.db.mark), [job_id, JobDiscovered.event_type])
    if not rows:
        return None
    raw, schema_version, position = rows[0]
    payload = raw if isinstance(raw, bytes) else str(raw).encode()
    event = store.registry.decode_payload(JobDiscovered.event_type, payload, schema_version, position)
    assert isinstance(event, JobDiscovered)
    return int(position), event
