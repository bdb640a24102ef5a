"""Drain the candidate-profile outbox into continuations (spec: condition-driven preparation; ADR
0074, 0077, 0262).

Orchestration decides every step; the Temporal client is behind ``ContinuationControl``:

1. the continuations of intents already marked dispatch-intended and not closed are described, to
   tell closed ones (and the newest queued one, so an unreachable Temporal fails before anything is
   recorded).  A continuation with its terminal fact ``ProfileContinuationClosed`` is never
   described: the log, not Temporal's retention, says it is done.  One found closed in Temporal
   without that fact (terminated, timed out, or ended before the fact existed) gets it now, recorded
   by the drain;
2. ``record_profile_dispatches`` commits coalescing of never-started intents and the dispatch
   intent of the newest one *before* anything is started;
3. the newest intent's continuation is started under its deterministic id, and an intended one that
   is not open (lost before its start) is started again; an open one is attached to (left running),
   a closed one is never restarted.  Each started continuation awaits the older open ones (``after``).

Without Temporal the save has already committed: the intent stays in the outbox for the next drain.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import (
    CLOSED_STATUSES,
    DispatchKind,
    IntentStatus,
    ProfileContinuationInput,
)
from jobctrl.orchestration.events import ContinuationOutcome
from jobctrl.orchestration.ports import ContinuationControl
from jobctrl.orchestration.use_cases.close_profile_continuation import close_profile_continuation
from jobctrl.orchestration.use_cases.load_profile import load_profile
from jobctrl.orchestration.use_cases.record_profile_dispatches import record_profile_dispatches

#: Temporal's closed statuses as the terminal fact's outcome.
OUTCOME_OF_STATUS: dict[str, ContinuationOutcome] = {
    "COMPLETED": "succeeded",
    "FAILED": "failed",
    "CANCELED": "canceled",
    "TERMINATED": "terminated",
    "TIMED_OUT": "timed_out",
}
assert set(OUTCOME_OF_STATUS) == CLOSED_STATUSES


@dataclass(frozen=True)
class DrainReport:
    started: list[str] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)
    #: continuations found closed in Temporal without their terminal fact: this drain recorded it
    closed: list[str] = field(default_factory=list)


async def drain_profile_outbox(
    store: EventStore,
    control: ContinuationControl,
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> DrainReport:
    profile = await asyncio.to_thread(load_profile, store, clock=clock, tenant_id=tenant_id)
    status: dict[str, str | None] = {}
    queued = sorted(
        (i for i in profile.intents.values() if i.status is IntentStatus.QUEUED),
        key=lambda i: i.profile_version,
    )
    # The newest queued intent is described too: it must be absent, and asking first means an
    # unreachable Temporal raises before any dispatch intent is committed, so revisions saved while
    # Temporal is down stay coalescible.  Closed intents (the terminal fact) are not asked about.
    intended = [i for i in profile.intents.values() if i.status is IntentStatus.DISPATCH_INTENDED]
    for intent in [*intended, *queued[-1:]]:
        status[intent.workflow_id] = await control.describe(intent.workflow_id)
    report = DrainReport()
    for intent in intended:
        found = status[intent.workflow_id]
        if found in CLOSED_STATUSES and await asyncio.to_thread(
            close_profile_continuation, store, intent.workflow_id, OUTCOME_OF_STATUS[found],
            recorded_by="outbox_drain", clock=clock, tenant_id=tenant_id,
        ):  # fmt: skip
            report.closed.append(intent.workflow_id)
    plan = await asyncio.to_thread(
        record_profile_dispatches, store, lambda wid: status.get(wid) in CLOSED_STATUSES,
        clock=clock, tenant_id=tenant_id,
    )  # fmt: skip
    reloaded = await asyncio.to_thread(load_profile, store, clock=clock, tenant_id=tenant_id)
    intents = {i.intent_id: i for i in reloaded.intents.values()}
    open_older: list[str] = []
    for dispatch in plan:
        if dispatch.kind is DispatchKind.ATTACH and status.get(dispatch.workflow_id) is not None:
            report.attached.append(dispatch.workflow_id)  # open: it carries on by itself
            open_older.append(dispatch.workflow_id)
            continue
        arg = ProfileContinuationInput(
            tenant=tenant_id,
            profile_version=dispatch.profile_version,
            profile_event_id=intents[dispatch.intent_id].profile_event_id,
            after=list(open_older),  # attachments come first in the plan: the newer awaits them
        )
        if not await control.start(dispatch.workflow_id, arg):
            # A concurrent drain started it first (or it closed meanwhile: never started twice).
            report.attached.append(dispatch.workflow_id)
            continue
        report.started.append(dispatch.workflow_id)
        open_older.append(dispatch.workflow_id)
    return report
