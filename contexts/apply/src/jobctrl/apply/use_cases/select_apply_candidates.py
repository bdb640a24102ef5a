"""The jobs the standing auto-apply loop may claim next (ADR 0321): of ``jobs`` (in their order),
those ``ready`` says are ready to apply with (the owners' answers: score eligible, PDFs rendered)
and that have no apply run yet, since the loop tries a job once (the claim re-checks approval and
every other rule).  Each job is one read of its ``JobApplication`` stream; the scan stops as soon
as ``limit`` are found, so with ``jobs`` an iterator that reads lazily (discovery's known jobs, in
keyset pages) no more of it is read than the answer needs."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from jobctrl.apply.use_cases._common import jobs as application_repository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore


def select_apply_candidates(
    store: EventStore,
    jobs: Iterable[str],
    *,
    ready: Callable[[str], bool],
    limit: int,
    clock: Clock | None = None,
) -> list[str]:
    repo = application_repository(store, clock)
    found: list[str] = []
    for job_id in jobs:
        if not ready(job_id):
            continue
        app = repo.load(job_id)
        if app is None or not app.state.runs:
            found.append(job_id)
        if len(found) >= limit:
            break
    return found
