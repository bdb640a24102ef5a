"""One job's apply target, decided by discovery from its own ``JobDiscovered`` fact (ADR 0321): read
by the job id through the store's index (``discovered_job``), never by a scan."""

from __future__ import annotations

from jobctrl.discovery.domain.job import application_url_of
from jobctrl.discovery.use_cases.discovered_job import discovered_job
from jobctrl.kernel.store import EventStore


def application_url(store: EventStore, job_id: str) -> str | None:
    return application_url_of(discovered_job(store, job_id))
