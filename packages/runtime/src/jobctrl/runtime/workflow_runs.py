"""Workflow-run state as the runtime sees it: a fold of the ``Workflow*`` events in ``job_events``.

Streams are ``workflow-{workflowId}-{runId}`` (one per exact run).  Event ids are deterministic per
(run, fact), so an activity retry or a second reconciler pass appends nothing new.  ``reconciled_not_found``
is a provisional verdict: the run stays open for probing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import msgspec
from sqlalchemy import select

from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.store import EventStore, WriteTransaction
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration.events import (
    WorkflowCanceled,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowTerminated,
    WorkflowTimedOut,
)

NOT_FOUND = "reconciled_not_found"
TERMINAL_TYPES: tuple[str, ...] = tuple(
    cls.event_type
    for cls in (WorkflowCompleted, WorkflowFailed, WorkflowCanceled, WorkflowTimedOut, WorkflowTerminated)
)
LIFECYCLE_TYPES: tuple[str, ...] = (WorkflowStarted.event_type, *TERMINAL_TYPES)


class _Lifecycle(msgspec.Struct):
    workflowId: str  # noqa: N815 - wire names
    workflowType: str  # noqa: N815
    status: str
    temporalRunId: str | None = None  # noqa: N815
    errorCode: str | None = None  # noqa: N815
    recoveredFromMissingHistory: bool | None = None  # noqa: N815


@dataclass
class RunState:
    workflow_id: str
    run_id: str
    workflow_type: str
    tenant_id: str
    status: str
    error_code: str | None
    started_at: str | None
    recoveries: int

    @property
    def provisional(self) -> bool:
        return self.status == "terminated" and self.error_code == NOT_FOUND

    @property
    def open(self) -> bool:
        return self.status == "in_progress" or self.provisional


def stream_for(workflow_id: str, run_id: str) -> str:
    raw = f"workflow-{workflow_id}-{run_id}"
    if len(raw) <= 200:
        return raw
    return f"workflow-{hashlib.sha256(raw.encode()).hexdigest()}"


def event_id_for(workflow_id: str, run_id: str, fact: str) -> str:
    return hashlib.sha256(f"{workflow_id}\x00{run_id}\x00{fact}".encode()).hexdigest()[:48]


def _fold(
    state: RunState | None, event_type: str, payload: bytes | str, tenant: str, occurred_at: str
) -> RunState:
    body = msgspec.json.decode(payload, type=_Lifecycle)
    if state is None:
        # The first fact of a run is its start marker (a terminal alone still names the run).
        state = RunState(
            body.workflowId, body.temporalRunId or "", body.workflowType, tenant, "in_progress", None,
            occurred_at, 0,
        )  # fmt: skip
        if event_type == WorkflowStarted.event_type:
            return state
    if event_type == WorkflowStarted.event_type:
        if state.open:  # a recovery marker reopens a provisional verdict, never a real terminal
            state.status, state.error_code = "in_progress", None
            state.recoveries += 1 if body.recoveredFromMissingHistory else 0
        return state
    state.status, state.error_code = body.status, body.errorCode
    return state


def fold_runs(store: EventStore) -> dict[tuple[str, str], RunState]:
    """Every run's current state (small: one entry per run, read once per tick)."""
    runs: dict[tuple[str, str], RunState] = {}
    after = 0
    while batch := store.read_all(after=after, limit=1000, types=LIFECYCLE_TYPES):
        for row in batch:
            after = row.position
            body = msgspec.json.decode(row.payload, type=_Lifecycle)
            key = (body.workflowId, body.temporalRunId or "")
            runs[key] = _fold(runs.get(key), row.event_type, row.payload, row.tenant_id, row.occurred_at)
    return runs


def fold_runs_in_stream(tx: WriteTransaction, workflow_id: str, run_id: str) -> RunState | None:
    """One run's state, read inside the caller's write transaction (check-then-append is atomic)."""
    rows = tx.conn.execute(
        select(
            job_events.c.event_type, job_events.c.payload, job_events.c.tenant_id, job_events.c.occurred_at
        )
        .where(job_events.c.stream_id == stream_for(workflow_id, run_id))
        .order_by(job_events.c.stream_version)
    ).all()
    state: RunState | None = None
    for event_type, payload, tenant, occurred in rows:
        state = _fold(state, event_type, payload, tenant, occurred)
    return state


def append_lifecycle(
    store: EventStore,
    workflow_id: str,
    run_id: str,
    tenant_id: str,
    facts: Sequence[tuple[str, DomainEvent]],
    occurred_at: datetime,
    *,
    only_if_open: bool,
) -> bool:
    """Append lifecycle facts for one run; with ``only_if_open`` nothing is written once the run has a
    real (non-provisional) terminal outcome.  Returns whether anything was appended."""
    with store.transaction() as tx:
        state = fold_runs_in_stream(tx, workflow_id, run_id)
        if only_if_open and state is not None and not state.open:
            return False
        events = [
            NewEvent.of(
                event,
                occurred_at=occurred_at,
                tenant_id=tenant_id,
                event_id=event_id_for(workflow_id, run_id, fact),
                workflow_id=workflow_id,
                run_id=run_id,
            )
            for fact, event in facts
        ]
        existing = (
            tx.conn.execute(
                job_events.select()
                .with_only_columns(job_events.c.event_id)
                .where(job_events.c.event_id.in_([e.event_id for e in events]))
            )
            .scalars()
            .all()
        )
        fresh = [e for e in events if e.event_id not in set(existing)]
        if not fresh:
            return False
        tx.append(stream_for(workflow_id, run_id), None, fresh)
        return True


__all__ = [
    "LIFECYCLE_TYPES",
    "NOT_FOUND",
    "TERMINAL_TYPES",
    "RunState",
    "append_lifecycle",
    "event_id_for",
    "fold_runs",
    "fold_runs_in_stream",
    "stream_for",
]
