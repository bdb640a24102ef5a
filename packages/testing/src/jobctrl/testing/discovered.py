"""A discovered job as a new event of the log: the row the store, notification and SSE tests append
by the hundred (the content is immaterial to them; only the job id, the stream and the time are)."""

from __future__ import annotations

from datetime import UTC, datetime

from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.ids import LOCAL_TENANT

AT = datetime(2026, 3, 1, tzinfo=UTC)


def discovered(
    job_id: str, n: int, *, source: str = "s", at: datetime = AT, tenant_id: str = LOCAL_TENANT
) -> NewEvent:
    """``JobDiscovered`` of ``job_id`` (Acme's posting ``https://jobs.example/{n}``), discovered and
    recorded at ``at``."""
    event = JobDiscovered(
        job_id=job_id, posting_url=f"https://jobs.example/{n}", source=source, employer="Acme",
        metadata={}, discovered_at=isoformat(at),
    )  # fmt: skip
    return NewEvent.of(event, occurred_at=at, tenant_id=tenant_id)
