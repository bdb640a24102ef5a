"""Settle the stage rows still running under ``owner``'s workflow (completed when their result
committed, else made explicitly retryable): run by a retrying activity before any selector-based
work and by the recovery step before a failed preparation's terminal outcome (see ``JobStages``)."""

from __future__ import annotations

from collections.abc import Mapping

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import ReconciledRow
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.use_cases.change_job_stages import change_job_stages


def reconcile_owned_stages(
    store: EventStore,
    job_id: str,
    owner: StageOwner,
    committed_versions: Mapping[Stage, int | None] | None = None,
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> list[ReconciledRow]:
    at = now_iso(clock)
    committed = dict(committed_versions or {})
    return change_job_stages(
        store, job_id, lambda s: s.reconcile_owned_rows(owner, committed, at=at),
        owner=owner, clock=clock, tenant_id=tenant_id,
    )  # fmt: skip
