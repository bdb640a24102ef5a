"""The worker composition root: build one Temporal worker, reconcile at start-up, heartbeat.

Start-up order (runtime reference §1.8, minus the browser preflight and legacy repair which belong to
other contexts): reconcile the discovery schedule, reconcile runs, reconcile the auto-apply
loop, drain the profile outbox, build the worker, write the first heartbeat, start the 15 s
heartbeat loop, run the worker.
Each heartbeat tick writes the row, re-reads the settings, then reconciles the discovery schedule
(when its saved settings changed, ADR 0135), runs the run reconciler, the coverage checkpoint writer
(ADR 0132) and the auto-apply reconciler.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from temporalio.client import Client
from temporalio.worker import Worker

from jobctrl.kernel import heap
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import WORKFLOWS, SpendLedger
from jobctrl.runtime.activities import ActivityDeps, ActivityFn, build_activities
from jobctrl.runtime.activities.ports import NoPreparationTargets, PreparationTargetsPort
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.runtime.outbox import drain_profile_outbox
from jobctrl.runtime.reconcile.auto_apply import reconcile_auto_apply_loop
from jobctrl.runtime.reconcile.coverage import reconcile_coverage
from jobctrl.runtime.reconcile.runs import reconcile_runs
from jobctrl.runtime.reconcile.schedule import reconcile_discovery_schedule
from jobctrl.runtime.settings import RuntimeSettings, SettingsSource
from jobctrl.runtime.telemetry import heartbeat
from jobctrl.runtime.telemetry.interceptor import ActivityRuntimeTelemetryInterceptor, RuntimeTelemetry
from jobctrl.runtime.workflow_runner import sandbox_runner, worker_runner

__all__ = ["LOCAL_ACTIVITY_SLOTS", "WorkerRuntime", "WorkerSizing", "build_worker", "sandbox_runner"]

log = logging.getLogger(__name__)


#: Local activities (the lifecycle records and the preparation checkpoint, ADR 0236) run inside a
#: workflow task, so the task lasts as long as its local activity waits for a thread (ADR 0361).
LOCAL_ACTIVITY_SLOTS = 2


@dataclass(frozen=True)
class WorkerSizing:
    """How much one worker takes on at once (ADR 0361).

    ``activities`` queued activities (the saved ``worker_activity_slots``), ``local_activities``
    local ones and ``workflow_tasks`` workflow tasks in flight (the SDK gives them as many threads).
    The activity executor has a thread for every activity and local-activity slot, so a local
    activity never waits behind a step.  Workflow tasks are bounded (the SDK's default is 100 in
    flight, each of which may be waiting for its local activity), so a task's duration is its own
    work plus a short local-activity queue, not the whole backlog: the rest waits on the server.
    """

    activities: int
    local_activities: int = LOCAL_ACTIVITY_SLOTS
    workflow_tasks: int = 4

    @classmethod
    def for_slots(cls, slots: int) -> WorkerSizing:
        return cls(activities=slots, workflow_tasks=max(2, min(slots, 8)))

    @property
    def executor_threads(self) -> int:
        return self.activities + self.local_activities


def build_worker(
    client: Client,
    *,
    task_queue: str,
    deps: ActivityDeps,
    slots: int,
    telemetry: RuntimeTelemetry,
    executor: ThreadPoolExecutor,
    overrides: Iterable[ActivityFn] = (),
) -> Worker:
    """``executor`` should have ``WorkerSizing.for_slots(slots).executor_threads`` threads."""
    sizing = WorkerSizing.for_slots(slots)
    return Worker(
        client,
        task_queue=task_queue,
        workflows=list(WORKFLOWS),
        activities=build_activities(deps, overrides),
        activity_executor=executor,
        max_concurrent_activities=sizing.activities,
        max_concurrent_local_activities=sizing.local_activities,
        max_concurrent_workflow_tasks=sizing.workflow_tasks,
        interceptors=[ActivityRuntimeTelemetryInterceptor(telemetry)],
        workflow_runner=worker_runner(client.data_converter),  # ADR 0381
    )


@dataclass
class WorkerRuntime:
    """Everything one running worker owns; ``run`` blocks until ``stop`` (or cancellation)."""

    client: Client
    db: Database
    store: EventStore
    settings: SettingsSource
    spend: SpendLedger
    task_queue: str
    namespace: str = "default"
    overrides: Iterable[ActivityFn] = ()
    clock: Clock = field(default_factory=SystemClock)
    heartbeat_interval_s: float = heartbeat.INTERVAL_SECONDS
    tenant: str = "local"
    telemetry: RuntimeTelemetry = field(default_factory=RuntimeTelemetry)
    targets: PreparationTargetsPort = field(default_factory=NoPreparationTargets)
    #: the process's entry point owns its heap: ``jobctrl worker`` (and the embedded runtime of
    #: ``jobctrl demo`` / ``run``) freeze it once the worker is built (ADR 0426); a library caller
    #: (a test session) leaves it alone
    freeze_startup: bool = False

    def __post_init__(self) -> None:
        self._stop = asyncio.Event()
        self.ready = asyncio.Event()  # set once the worker polls and the first heartbeat is written
        self.identity: heartbeat.RuntimeIdentity | None = None
        self._schedule: tuple[bool, str] | None = None  # the (enabled, cron) last reconciled

    async def _reconcile_schedule(self, settings: RuntimeSettings) -> None:
        """The discovery schedule follows the settings: reconciled at start-up and again on a
        heartbeat whenever the saved (enabled, cron) changed (ADR 0135)."""
        wanted = (settings.scheduling_enabled, settings.schedule_cron)
        if wanted == self._schedule:
            return
        await reconcile_discovery_schedule(self.client, settings, self.task_queue, self.tenant)
        self._schedule = wanted

    async def startup(self) -> None:
        settings = self.settings.load()
        heartbeat.create_table(self.db)
        url = self.db.engine.url
        db_path = url.database or "" if self.db.is_sqlite else url.render_as_string(hide_password=True)
        self.identity = heartbeat.RuntimeIdentity.current(
            app_dir=str(Path(db_path).parent) if self.db.is_sqlite else "",
            db_path=db_path,
            task_queue=self.task_queue,
            slots=settings.slots,
            now=self.clock.now(),
        )
        await self._reconcile_schedule(settings)
        await reconcile_runs(self.client, self.store, self.clock)
        await asyncio.to_thread(reconcile_coverage, self.store, self.clock)
        await reconcile_auto_apply_loop(
            self.client, settings, self.store, self.spend, self.task_queue, self.tenant
        )
        # A profile saved while no worker ran left its continuation in the outbox: deliver it now.
        await drain_profile_outbox(
            self.store,
            TemporalWorkflowControl.for_client(self.client),
            task_queue=self.task_queue,
            clock=self.clock,
            tenant_id=self.tenant,
        )

    async def tick(self) -> None:
        """One heartbeat: the row first (liveness), then the reconcilers (a failure is logged, not fatal)."""
        assert self.identity is not None
        observation = await heartbeat.observe_task_queue(self.client, self.namespace, self.task_queue)
        await asyncio.to_thread(
            heartbeat.write_heartbeat, self.db, self.identity, self.telemetry, self.clock.now(), observation
        )
        try:
            settings = await asyncio.to_thread(self.settings.load)  # the saved settings, re-read
            await self._reconcile_schedule(settings)
            await reconcile_runs(self.client, self.store, self.clock)
            await asyncio.to_thread(reconcile_coverage, self.store, self.clock)
            await reconcile_auto_apply_loop(
                self.client, settings, self.store, self.spend, self.task_queue, self.tenant
            )
        except Exception:
            log.exception("heartbeat reconciliation failed; retrying next tick")

    async def _heartbeats(self) -> None:
        while not self._stop.is_set():
            try:
                await asyncio.wait_for(self._stop.wait(), timeout=self.heartbeat_interval_s)
            except TimeoutError:
                await self.tick()

    def stop(self) -> None:
        self._stop.set()

    async def run(self) -> None:
        await self.startup()
        slots = self.settings.load().slots
        deps = ActivityDeps(
            store=self.store, spend=self.spend, client=self.client, targets=self.targets, clock=self.clock
        )
        sizing = WorkerSizing.for_slots(slots)
        with ThreadPoolExecutor(sizing.executor_threads, thread_name_prefix="jobctrl-activity") as executor:
            worker = build_worker(
                self.client,
                task_queue=self.task_queue,
                deps=deps,
                slots=slots,
                telemetry=self.telemetry,
                executor=executor,
                overrides=self.overrides,
            )
            if self.freeze_startup:
                # Before the worker polls: the imports and the worker are built, no task runs yet.
                heap.freeze_startup()
            async with worker:
                await self.tick()
                self.ready.set()
                await self._heartbeats()
