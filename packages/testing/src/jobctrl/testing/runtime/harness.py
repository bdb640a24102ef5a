"""A real worker on a real dev server for one test: fresh task queue, real generic activities bound to
the test's database, fakes for the context activities."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass

from temporalio.api.history.v1 import MarkerRecordedEventAttributes
from temporalio.client import Client
from temporalio.worker import Worker

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.spend_ledger import SpendLedger, ledger_with_settings
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.runtime.activities import ActivityDeps, ActivityFn
from jobctrl.runtime.activities.opening import OPEN_PREPARATION, PARTS
from jobctrl.runtime.activities.ports import PreparationTargetsPort
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.runtime.worker import WorkerSizing, build_worker

#: A local activity that runs others, in order, in each of its attempts (ADR 0391): an attempt of it
#: is an attempt of each part.
COMPOSITES: dict[str, tuple[str, ...]] = {OPEN_PREPARATION: PARTS}


def _local_attempts(marker: MarkerRecordedEventAttributes, activity_type: str) -> int:
    if marker.marker_name != "core_local_activity" or "data" not in marker.details:
        return 0
    data = json.loads(marker.details["data"].payloads[0].data)
    ran = data.get("activity_type")
    return int(data["attempt"]) if ran == activity_type or activity_type in COMPOSITES.get(ran, ()) else 0


async def activity_attempts(
    client: Client, workflow_id: str, activity_type: str, *, run_id: str | None = None
) -> int:
    """How many attempts of ``activity_type`` the run's history holds, queued or local (a local
    activity's marker records its last attempt's number; a composite's counts for its parts),
    following its continue-as-new chain from ``run_id`` (default: the latest run only).

    Read from Temporal, not from a counting stand-in, so the live activity (and its ledger) runs."""
    attempts = 0
    next_run: str | None = run_id
    while True:
        history = await client.get_workflow_handle(workflow_id, run_id=next_run).fetch_history()
        scheduled: dict[int, int] = {}
        next_run = None
        for event in history.events:
            if event.HasField("activity_task_scheduled_event_attributes"):
                if event.activity_task_scheduled_event_attributes.activity_type.name == activity_type:
                    scheduled[event.event_id] = 0
            elif event.HasField("activity_task_started_event_attributes"):
                started = event.activity_task_started_event_attributes
                if started.scheduled_event_id in scheduled:
                    scheduled[started.scheduled_event_id] = started.attempt  # the last attempt's number
            elif event.HasField("marker_recorded_event_attributes"):
                attempts += _local_attempts(event.marker_recorded_event_attributes, activity_type)
            elif event.HasField("workflow_execution_continued_as_new_event_attributes") and run_id:
                next_run = event.workflow_execution_continued_as_new_event_attributes.new_execution_run_id
        attempts += sum(scheduled.values())
        if next_run is None:
            return attempts


@dataclass
class RunningWorker:
    client: Client
    task_queue: str
    store: EventStore
    worker: Worker
    telemetry: RuntimeTelemetry


@dataclass
class Harness:
    address: str
    db: Database
    namespace: str = "default"

    def __post_init__(self) -> None:
        # The real ledger over the test's database, its ceiling read from the saved settings: the
        # preflight on the live path is never a stand-in (ADR 0110).
        create_orchestration_tables(self.db)
        self.spend: SpendLedger = ledger_with_settings(self.db)

    def set_spend(self, spent_usd: float, budget_usd: float, tenant_id: str = "local") -> None:
        """Save ``budget_usd`` as the daily ceiling and add ``spent_usd`` to the tenant's row of today."""
        SettingsStore(self.db).update({"daily_budget_usd": budget_usd})
        if spent_usd:
            self.spend.add(spent_usd, tenant_id=tenant_id)

    @property
    def store(self) -> EventStore:
        store = EventStore(self.db, registry())
        store.create_schema()
        return store

    async def client(self) -> Client:
        return await Client.connect(self.address, namespace=self.namespace)

    @asynccontextmanager
    async def worker(
        self,
        overrides: Iterable[ActivityFn],
        *,
        targets: PreparationTargetsPort | None = None,
        slots: int = 4,
        telemetry: RuntimeTelemetry | None = None,
    ) -> AsyncIterator[RunningWorker]:
        client = await self.client()
        store = self.store
        task_queue = f"test-{uuid.uuid4().hex[:12]}"
        deps = ActivityDeps(store=store, spend=self.spend, client=client)
        if targets is not None:
            deps.targets = targets
        telemetry = telemetry or RuntimeTelemetry()
        with ThreadPoolExecutor(max_workers=WorkerSizing.for_slots(slots).executor_threads) as executor:
            worker = build_worker(
                client,
                task_queue=task_queue,
                deps=deps,
                slots=slots,
                telemetry=telemetry,
                executor=executor,
                overrides=overrides,
            )
            async with worker:
                yield RunningWorker(client, task_queue, store, worker, telemetry)
