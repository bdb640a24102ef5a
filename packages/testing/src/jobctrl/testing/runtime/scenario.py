"""Shared state and helpers for the runtime's pytest-bdd scenarios (steps are sync: each ``When``
runs its async work with ``asyncio.run`` against the session's dev server)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec
from temporalio.client import Client, WorkflowFailureError, WorkflowHandle

from jobctrl.orchestration import LIFECYCLE_TYPES
from jobctrl.orchestration.workflows.errors import Failure, failure_of
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness

T = TypeVar("T")


@dataclass
class Scenario:
    harness: Harness
    fakes: FakeContexts = field(default_factory=FakeContexts)
    tenant: str = field(default_factory=lambda: f"t{uuid.uuid4().hex[:10]}")
    result: Any = None
    failure: Failure | None = None
    failure_message: str = ""
    workflow_id: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def run(self, coro: Awaitable[T]) -> T:
        return asyncio.run(coro)  # type: ignore[arg-type]

    async def capture(self, call: Callable[[], Awaitable[Any]]) -> None:
        try:
            self.result = await call()
        except WorkflowFailureError as exc:
            self.failure = failure_of(exc.cause)
            self.failure_message = str(getattr(exc.cause, "message", ""))

    def lifecycle(self, workflow_id: str | None = None) -> list[dict[str, Any]]:
        wid = workflow_id or self.workflow_id
        rows = self.harness.store.read_all(types=LIFECYCLE_TYPES, limit=10_000)
        bodies = [dict(msgspec.json.decode(r.payload), eventType=r.event_type) for r in rows]
        return [b for b in bodies if b["workflowId"] == wid]

    def lifecycle_types(self, workflow_id: str | None = None) -> str:
        return ", ".join(b["eventType"] for b in self.lifecycle(workflow_id))


def wait_until(predicate: Callable[[], bool], timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(0.05)


async def until(predicate: Callable[[], bool], timeout_s: float = 20.0) -> None:
    """``wait_until`` for a loop that must keep running (a worker lives on it)."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.05)


class Live:
    """One event loop for the whole scenario, with the worker kept open between steps."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.stack = AsyncExitStack()
        self.handle: WorkflowHandle[Any, Any] | None = None
        self.client: Client | None = None

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.run(self.stack.aclose())
        self.loop.close()
