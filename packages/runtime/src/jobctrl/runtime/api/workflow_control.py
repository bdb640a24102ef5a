"""The API's port to Temporal: start, cancel and describe a workflow (nothing else).

``TemporalWorkflowControl`` is the real adapter over ``temporalio.client.Client`` (connected lazily, so
the API starts without Temporal); it is the only one: the API's tests drive it against the dev server
(ADR 0273).  Endpoints that need Temporal answer 503 when no adapter is configured or the server is
unreachable.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.common import WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.kernel.errors import JobCtrlError


class TemporalUnavailable(JobCtrlError):
    code = "temporal_unavailable"
    retryable = True


class WorkflowAlreadyRunning(JobCtrlError):
    code = "workflow_already_running"
    retryable = False


@dataclass(frozen=True)
class StartedWorkflow:
    workflow_id: str
    run_id: str


class WorkflowControl(Protocol):
    async def start(
        self, workflow_type: str, arg: Any, *, workflow_id: str, task_queue: str, once: bool = False
    ) -> StartedWorkflow:
        """Start ``workflow_type`` under ``workflow_id``; ``WorkflowAlreadyRunning`` if it is open (or,
        with ``once``, if an execution under that id ever existed: the id is never reused)."""
        ...

    async def cancel(self, workflow_id: str, run_id: str | None) -> None:
        """Request cancellation of exactly this run (``run_id``) of the workflow."""
        ...

    async def describe(self, workflow_id: str, run_id: str | None) -> str | None:
        """The execution status name (``RUNNING``, ``COMPLETED``...), ``None`` when not found."""
        ...


class TemporalWorkflowControl:
    def __init__(self, address: str, namespace: str = "default", *, connect_timeout_s: float = 5.0) -> None:
        self.address = address
        self.namespace = namespace
        self.connect_timeout_s = connect_timeout_s
        self._client: Client | None = None
        self._lock = asyncio.Lock()

    @classmethod
    def for_client(cls, client: Client) -> TemporalWorkflowControl:
        """The adapter over an already connected client (the worker's own)."""
        control = cls("", client.namespace)
        control._client = client
        return control

    async def _connected(self) -> Client:
        async with self._lock:
            if self._client is None:
                try:
                    self._client = await asyncio.wait_for(
                        Client.connect(self.address, namespace=self.namespace), self.connect_timeout_s
                    )
                except (RuntimeError, OSError, TimeoutError, RPCError) as exc:
                    raise TemporalUnavailable(f"cannot reach Temporal at {self.address}") from exc
            return self._client

    async def start(
        self, workflow_type: str, arg: Any, *, workflow_id: str, task_queue: str, once: bool = False
    ) -> StartedWorkflow:
        client = await self._connected()
        reuse = WorkflowIDReusePolicy.REJECT_DUPLICATE if once else WorkflowIDReusePolicy.ALLOW_DUPLICATE
        try:
            handle = await client.start_workflow(
                workflow_type, arg, id=workflow_id, task_queue=task_queue, id_reuse_policy=reuse
            )
        except WorkflowAlreadyStartedError:
            raise WorkflowAlreadyRunning(f"{workflow_id} is already running") from None
        except RPCError as exc:
            raise TemporalUnavailable(f"Temporal refused the start: {exc.status.name}") from exc
        return StartedWorkflow(workflow_id, handle.result_run_id or handle.first_execution_run_id or "")

    async def cancel(self, workflow_id: str, run_id: str | None) -> None:
        client = await self._connected()
        try:
            await client.get_workflow_handle(workflow_id, run_id=run_id).cancel()
        except RPCError as exc:
            raise TemporalUnavailable(f"Temporal refused the cancel: {exc.status.name}") from exc

    async def describe(self, workflow_id: str, run_id: str | None) -> str | None:
        client = await self._connected()
        try:
            described = await client.get_workflow_handle(workflow_id, run_id=run_id).describe()
        except RPCError as exc:
            if exc.status == RPCStatusCode.NOT_FOUND:
                return None
            raise TemporalUnavailable(f"Temporal refused the describe: {exc.status.name}") from exc
        status = described.status
        return status.name if isinstance(status, WorkflowExecutionStatus) else None
