"""What the real Temporal server holds, for tests that drive the API's real adapter
(``TemporalWorkflowControl``) against the session's dev server instead of an in-memory double.

The API starts workflows on a queue no worker polls, so an execution it starts stays ``RUNNING``
and a cancel it sends stays a request in the history.  ``TemporalProbe`` reads both back from the
server (type, status, task queue, the start input as JSON, whether a cancel was requested), and
``close`` terminates every execution the test touched, so the next test can reuse its ids.  Its
methods are synchronous and run on a private event loop, so sync pytest-bdd steps and async tests
can both call them.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client
from temporalio.service import RPCError, RPCStatusCode

T = TypeVar("T")


@dataclass(frozen=True)
class Execution:
    workflow_id: str
    run_id: str
    workflow_type: str
    status: str
    task_queue: str
    input: Any
    cancel_requested: bool


class TemporalProbe:
    def __init__(self, address: str, namespace: str = "default") -> None:
        self.address = address
        self.namespace = namespace
        self.touched: set[str] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._client: Client = self._run(Client.connect(address, namespace=namespace))

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    def find(self, workflow_id: str, run_id: str | None = None) -> Execution | None:
        """The execution under ``workflow_id`` (its latest run unless ``run_id``), ``None`` if none."""
        self.touched.add(workflow_id)
        return self._run(self._find(workflow_id, run_id))

    async def _find(self, workflow_id: str, run_id: str | None) -> Execution | None:
        handle = self._client.get_workflow_handle(workflow_id, run_id=run_id)
        try:
            described = await handle.describe()
            history = await handle.fetch_history()
        except RPCError as exc:
            if exc.status == RPCStatusCode.NOT_FOUND:
                return None
            raise
        started = history.events[0].workflow_execution_started_event_attributes
        payloads = started.input.payloads
        return Execution(
            workflow_id=workflow_id,
            run_id=described.run_id,
            workflow_type=described.workflow_type,
            status=described.status.name if described.status else "UNKNOWN",
            task_queue=started.task_queue.name,
            input=json.loads(payloads[0].data) if payloads else None,
            cancel_requested=any(
                e.event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED
                for e in history.events
            ),
        )

    def start_idle(self, workflow_type: str, workflow_id: str, task_queue: str) -> str:
        """Start an execution no worker will run (it stays RUNNING); its run id."""
        self.touched.add(workflow_id)
        handle = self._run(self._client.start_workflow(workflow_type, id=workflow_id, task_queue=task_queue))
        return handle.first_execution_run_id or handle.result_run_id or ""

    def close(self) -> None:
        """Terminate every still-open execution the test touched, then stop the private loop."""
        try:
            for workflow_id in sorted(self.touched):
                found = self.find(workflow_id)
                if found is not None and found.status == "RUNNING":
                    self._run(self._client.get_workflow_handle(workflow_id).terminate("test cleanup"))
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()
