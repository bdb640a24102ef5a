"""``StageTrackerService``: orchestration's implementation of the ``StageTracker`` port the context
activities record their stage transitions through (owner metadata = workflow id, run id, attempt).

Each method is one of orchestration's stage use cases (``begin_stage``, ``complete_stage``,
``fail_stage``, ``skip_stage``); this adapter only turns the port's ``StepOwner`` into the stage
machine's ``StageOwner``, measures each step's duration between its begin and its end, and keeps
the stage aggregate each write leaves for the job's next write (``StagesCache``, ADR 0363; shared by
the ``for_tenant`` copies, keyed by tenant).
"""

from __future__ import annotations

import copy
import time

from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageOwner, Succeeded
from jobctrl.orchestration.use_cases.begin_stage import begin_stage
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache
from jobctrl.orchestration.use_cases.complete_stage import complete_stage
from jobctrl.orchestration.use_cases.fail_stage import fail_stage
from jobctrl.orchestration.use_cases.load_job_stages import load_job_stages
from jobctrl.orchestration.use_cases.skip_stage import skip_stage


def _owner(owner: StepOwner) -> StageOwner:
    return StageOwner(owner.workflow_id, owner.run_id, owner.attempt)


class StageTrackerService:
    def __init__(
        self, store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.tenant_id = tenant_id
        self._started: dict[tuple[str, str], float] = {}
        self.kept = StagesCache()

    def for_tenant(self, tenant_id: str) -> StageTrackerService:
        """Stage events of ``tenant_id``'s workflow go under that tenant (the step durations are shared)."""
        if tenant_id == self.tenant_id:
            return self
        other = copy.copy(self)
        other.tenant_id = tenant_id
        return other

    def load(self, job_id: str) -> JobStages:
        return load_job_stages(self.store, job_id, clock=self.clock, tenant_id=self.tenant_id)

    def succeeded(self, job_id: str, stage: Stage) -> bool:
        return isinstance(self.load(job_id).state(stage), Succeeded)

    def begin(self, job_id: str, stage: Stage, owner: StepOwner) -> bool:
        started = begin_stage(
            self.store,
            job_id,
            stage,
            _owner(owner),
            clock=self.clock,
            tenant_id=self.tenant_id,
            kept=self.kept,
        )
        if started:
            self._started[(job_id, stage)] = time.monotonic()
        return started

    def _elapsed_ms(self, job_id: str, stage: str) -> int:
        began = self._started.pop((job_id, stage), None)
        return 0 if began is None else int((time.monotonic() - began) * 1000)

    def succeed(self, job_id: str, stage: Stage, owner: StepOwner) -> None:
        complete_stage(
            self.store, job_id, stage, _owner(owner), duration_ms=self._elapsed_ms(job_id, stage),
            clock=self.clock, tenant_id=self.tenant_id, kept=self.kept,
        )  # fmt: skip

    def fail(self, job_id: str, stage: Stage, owner: StepOwner, error: JobCtrlError) -> None:
        self._elapsed_ms(job_id, stage)
        fail_stage(
            self.store,
            job_id,
            stage,
            _owner(owner),
            error,
            clock=self.clock,
            tenant_id=self.tenant_id,
            kept=self.kept,
        )

    def skip(self, job_id: str, stage: Stage, reason: str) -> None:
        skip_stage(
            self.store, job_id, stage, reason, clock=self.clock, tenant_id=self.tenant_id, kept=self.kept
        )
