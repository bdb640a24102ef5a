"""The API's port to Temporal: start, cancel and describe a workflow (nothing else).

``TemporalWorkflowControl`` is the real adapter over ``temporalio.client.Client`` (connected lazily, so
the API starts without Temporal); ``InMemoryWorkflowControl`` is the test adapter that records calls.
Endpoints that need Temporal answer 503 when no adapter is configured or the server is unreachable.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
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


@dataclass
class InMemoryWorkflowControl:
    """The test adapter: workflows "run" until canceled; every call is recorded."""

    started: list[tuple[str, str, Any]] = field(default_factory=list)
    canceled: list[tuple[str, str | None]] = field(default_factory=list)
    running: dict[str, str] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)
    unavailable: bool = False

    def _check(self) -> None:
        if self.unavailable:
            raise TemporalUnavailable("the test Temporal is switched off")

    async def start(
        self, workflow_type: str, arg: Any, *, workflow_id: str, task_queue: str, once: bool = False
    ) -> StartedWorkflow:
        self._check()
        if workflow_id in self.running or (once and workflow_id in self.closed):
            raise WorkflowAlreadyRunning(f"{workflow_id} is already running")
        run_id = f"run-{len(self.started) + 1}"
        self.running[workflow_id] = run_id
        self.started.append((workflow_type, workflow_id, arg))
        return StartedWorkflow(workflow_id, run_id)

    async def cancel(self, workflow_id: str, run_id: str | None) -> None:
        self._check()
        self.canceled.append((workflow_id, run_id))
        if self.running.pop(workflow_id, None) is not None:
            self.closed.add(workflow_id)

    async def describe(self, workflow_id: str, run_id: str | None) -> str | None:
        self._check()
        if workflow_id in self.running:
            return "RUNNING"
        return "CANCELED" if workflow_id in self.closed else None
