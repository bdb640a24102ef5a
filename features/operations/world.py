"""The world of features/operations: past events go into the log and are folded by the projection
runner; the constants every step module shares (one Discover execution, one clock)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionWorkPlanRecorded,
    WorkPlanState,
)
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.stages import STAGES
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.events import (
    StageCompleted,
    StageStarted,
)
from jobctrl.projections.recoveries import (
    ExecutionKey,
)
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.runtime.api.operations import (
    OperationsSnapshot,
)
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.testing.vocabulary import one_of

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
WF = "discover-local"
RUN = "11111111-1111-4111-8111-111111111111"
REF = ExecutionRefPayload(tenant_id="local", workflow_id=WF, temporal_run_id=RUN)
KEY = ExecutionKey("local", WF, RUN)
COHORTS: dict[str, CohortKind] = {"observed": "observed_this_run", "swept": "existing_backlog"}


@dataclass
class World:
    store: EventStore
    seq: int = 0
    snapshot: OperationsSnapshot | None = None
    checkpoint: str | None = None
    coverage: dict[str, str] = field(default_factory=dict)
    telemetry: RuntimeTelemetry = field(default_factory=RuntimeTelemetry)

    @property
    def db(self) -> Database:
        return self.store.db

    def append(self, event: DomainEvent, at: datetime | None = None) -> None:
        self.seq += 1
        new = NewEvent.of(event, occurred_at=at or NOW - timedelta(hours=1), event_id=f"ev-{self.seq}")
        self.store.append("feature", None, [new])

    def fold(self) -> None:
        ProjectionRunner(self.db, self.store.registry, batch_size=50).catch_up()


def _iso(dt: datetime) -> str:
    return isoformat(dt)


def _stage_done(world: World, job: str, word: str, ms: int, at: datetime | None = None) -> None:
    when_ = at or NOW - timedelta(hours=1)
    stage = one_of(STAGES, word)
    world.append(StageStarted(job_id=job, stage=stage, attempt_number=1, started_at=_iso(when_)), when_)
    world.append(
        StageCompleted(job_id=job, stage=stage, finished_at=_iso(when_), duration_ms=ms),
        when_,
    )


def _link(world: World, job: str, cohort: str, plan: str) -> None:
    world.append(
        DiscoveryExecutionMemberLinked(execution=REF, job_id=job, cohort=COHORTS[cohort], linked_at=_iso(NOW))
    )
    # A plan word of the features: (state, required steps, whether a child workflow starts, reason).
    plans: dict[str, tuple[WorkPlanState, list[str], bool, str | None]] = {
        "planned": ("planned", ["enrich", "score"], True, None),
        "not eligible": ("not_eligible", [], False, "already_applied"),
    }
    if plan in plans:
        state, steps, child, reason = plans[plan]
        world.append(
            DiscoveryExecutionWorkPlanRecorded(
                execution=REF, job_id=job, state=state, required_steps=steps,
                child_workflow_id=f"prep-{job}" if child else None, reason_code=reason,
                recorded_at=_iso(NOW),
            )
        )  # fmt: skip


def _snap(world: World) -> dict[str, Any]:
    assert world.snapshot is not None
    out: dict[str, Any] = msgspec.to_builtins(world.snapshot)
    return out


def _value(text: str) -> Any:
    return None if text == "null" else msgspec.json.decode(text)
