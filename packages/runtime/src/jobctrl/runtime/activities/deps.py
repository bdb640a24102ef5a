"""What the runtime-generic activities need, built once per worker (no I/O at import time)."""

from __future__ import annotations

from dataclasses import dataclass, field

from temporalio.client import Client

from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import SpendLedger
from jobctrl.runtime.activities.ports import NoPreparationTargets, PreparationTargetsPort


@dataclass
class ActivityDeps:
    store: EventStore
    spend: SpendLedger  # the real ledger: never a stand-in (the preflight is ours, not an edge)
    client: Client | None = None
    targets: PreparationTargetsPort = field(default_factory=NoPreparationTargets)
    clock: Clock = field(default_factory=SystemClock)
