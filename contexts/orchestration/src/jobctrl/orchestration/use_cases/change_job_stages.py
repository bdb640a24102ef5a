"""Change one job's stages as one unit of work: load, run the transitions, save atomically.

The transitions run against the job's aggregate and the save appends with the version it was
loaded at, so the compare-and-swap happens inside the write transaction; a refusal
(TransitionRejected, OwnershipLost) raises before anything is appended, so a unit with a rejected
write appends none of its writes.  The owner goes into every event's metadata.

A worker's step writes its stage row twice (begun, then completed or failed) and its next step
writes it again: given a ``StagesCache``, the aggregate each save leaves is kept and the next unit
on that job starts from it instead of reloading the stream (ADR 0363).  The save is the check: a
unit that decided something on the kept aggregate is saved with the kept version, so if anyone else
appended to the stream since (another worker, the API's stage retry, the reconciler), the save
conflicts and the unit is decided again on a fresh load.  A unit that decided nothing, or was
refused, on the kept aggregate has nothing to check it against the store, so it is decided again on
a fresh load too: only decisions made on the stream as stored are acted on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import ConcurrencyConflict, EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.use_cases.load_job_stages import stage_repository

T = TypeVar("T")


class StagesCache:
    """The last saved ``JobStages`` of recently written jobs, by (tenant, job), least recently
    written out first.  An entry is taken out while a unit uses it: two threads never share one."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, str], JobStages] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, tenant_id: str, job_id: str) -> JobStages | None:
        with self._lock:
            return self._entries.pop((tenant_id, job_id), None)

    def keep(self, tenant_id: str, stages: JobStages) -> None:
        if stages.pending_events:
            return  # only what the store holds
        with self._lock:
            self._entries[(tenant_id, stages.id)] = stages
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def _save(repo: AggregateRepository[JobStages], stages: JobStages, owner: StageOwner | None) -> None:
    if owner is None:
        repo.save(stages)
    else:
        repo.save(stages, workflow_id=owner.workflow_id, run_id=owner.temporal_run_id, attempt=owner.attempt)


def _on_kept(
    repo: AggregateRepository[JobStages],
    kept: JobStages,
    transitions: Callable[[JobStages], T],
    owner: StageOwner | None,
) -> tuple[bool, T | None]:
    """(True, result) when the unit decided something on the kept aggregate and it was appended."""
    try:
        result = transitions(kept)
    except Exception:
        return False, None  # refused on what may be stale state: decided again on a fresh load
    if not kept.pending_events:
        return False, None  # nothing decided: nothing checks the kept state against the store
    try:
        _save(repo, kept, owner)
    except ConcurrencyConflict:
        return False, None  # the stream moved on since
    return True, result


def change_job_stages(
    store: EventStore,
    job_id: str,
    transitions: Callable[[JobStages], T],
    *,
    owner: StageOwner | None = None,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
    kept: StagesCache | None = None,
) -> T:
    """Returns what ``transitions`` returned, once its events are appended."""
    repo = stage_repository(store, clock=clock, tenant_id=tenant_id)
    previous = kept.take(tenant_id, job_id) if kept is not None else None
    if previous is not None:
        done, result = _on_kept(repo, previous, transitions, owner)
        if done:
            assert kept is not None
            kept.keep(tenant_id, previous)
            return result  # type: ignore[return-value]
    stages = repo.load(job_id) or JobStages(job_id)
    result = transitions(stages)
    _save(repo, stages, owner)
    if kept is not None:
        kept.keep(tenant_id, stages)
    return result
