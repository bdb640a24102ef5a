"""A real worker on a real dev server for one test: fresh task queue, real generic activities bound to
the test's database, fakes for the context activities."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from temporalio.client import Client
from temporalio.worker import Worker

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.activities import ActivityDeps, ActivityFn
from jobctrl.runtime.activities.ports import FixedSpendStatus, PreparationTargetsPort
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.runtime.worker import build_worker


class CountingSpend(FixedSpendStatus):
    """A spend port that counts how often the preflight read it (one read = one attempt)."""

    def __init__(self, spent_usd: float = 0.0, budget_usd: float = 25.0) -> None:
        super().__init__(spent_usd, budget_usd)
        self.reads = 0

    def today(self):  # type: ignore[no-untyped-def]
        self.reads += 1
        return super().today()


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
    spend: CountingSpend = field(default_factory=CountingSpend)

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
        with ThreadPoolExecutor(max_workers=slots + 2) as executor:
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
