"""What the profile-outbox tests share (ADR 0074, 0077): the sample profile, the targets port and a
recording ``score_job`` fake, and :class:`Outbox`, one tenant's outbox on a running worker drained
through the real Temporal adapter."""

from __future__ import annotations

import asyncio
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

from temporalio import activity
from temporalio.client import Client

from jobctrl.activity_contracts.contracts import (
    PreparationStepInput,
    PreparationStepResult,
)
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import load_profile, save_profile
from jobctrl.orchestration.domain.profile.aggregate import (
    CandidateProfile,
    SaveOutcome,
)
from jobctrl.orchestration.events import ProfileContinuationClosed, ProfileUpdated
from jobctrl.orchestration.workflows.continuation import (
    continuation_key,
)
from jobctrl.orchestration.workflows.ids import preparation_workflow_id
from jobctrl.runtime.activities import ActivityFn
from jobctrl.runtime.activities.ports import PreparationTarget
from jobctrl.runtime.api.workflow_control import (
    StartedWorkflow,
    TemporalWorkflowControl,
    WorkflowControl,
)
from jobctrl.runtime.outbox import DrainReport, drain_profile_outbox
from jobctrl.testing.runtime.harness import RunningWorker

JOBS = ["job-a", "job-b"]


def summary_of(text: str) -> list[dict[str, str]]:
    return [{"id": "sum-1", "text": text}]


def skills_of(*names: str) -> list[dict[str, object]]:
    return [{"id": "skills-1", "name": "Skills", "skills": list(names)}]


PROFILE = {"summary": summary_of("Backend engineer"), "skills": skills_of("python", "sql")}


@dataclass
class ContinuationTargets:
    """The targets port: the listed jobs for the ``profile_continuation`` cohort, nothing otherwise."""

    jobs: list[str] = field(default_factory=lambda: list(JOBS))
    asked: list[str] = field(default_factory=list)

    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        self.asked.append(cohort)
        if cohort != "profile_continuation":
            return []
        return [PreparationTarget(j, "score_job", None, "unused") for j in self.jobs]


@dataclass
class ScoreCalls:
    """A ``score_job`` fake that records what it was asked (the version, and that it is not forced)."""

    seen: list[tuple[str, int | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def activity(self) -> ActivityFn:
        @activity.defn(name="score_job")
        def score_job(params: PreparationStepInput) -> PreparationStepResult:
            with self.lock:
                self.seen.append((params.job_id, params.target_version))
            return PreparationStepResult("done")

        return score_job


def updated_event_id(store: EventStore, tenant: str, n: int = -1) -> str:
    ids = [
        s.event_id
        for s in store.read_stream(f"profile-{tenant}")
        if s.event_type == ProfileUpdated.event_type
    ]
    return ids[n]


async def runs_of(client: Client, workflow_id: str) -> int:
    return len([w async for w in client.list_workflows(f"WorkflowId = '{workflow_id}'")])


async def wait_prepared(client: Client, tenant: str, version: int, event_id: str) -> None:
    for job in JOBS:
        key = continuation_key(tenant, job, version, event_id)
        await asyncio.wait_for(client.get_workflow_handle(preparation_workflow_id(key)).result(), 30)


@dataclass
class Outbox:
    """One tenant's profile outbox on a running worker, drained through the real Temporal adapter."""

    rw: RunningWorker
    tenant: str = field(default_factory=lambda: f"t{uuid.uuid4().hex[:10]}")

    @property
    def control(self) -> TemporalWorkflowControl:
        return TemporalWorkflowControl.for_client(self.rw.client)

    def save(self, profile: dict[str, Any]) -> SaveOutcome:
        return save_profile(self.rw.store, profile, tenant_id=self.tenant)

    def load(self) -> CandidateProfile:
        return load_profile(self.rw.store, tenant_id=self.tenant)

    async def drain(self, control: WorkflowControl | None = None) -> DrainReport:
        return await drain_profile_outbox(
            self.rw.store, control or self.control, task_queue=self.rw.task_queue, tenant_id=self.tenant
        )

    async def save_and_start(self, profile: dict[str, Any]) -> str:
        """Save ``profile`` and drain: exactly one continuation starts; its workflow id."""
        self.save(profile)
        (started,) = (await self.drain()).started
        return started


@dataclass
class RecordingControl:
    """The real adapter, noting which executions a drain asked Temporal about."""

    inner: TemporalWorkflowControl
    described: list[str] = field(default_factory=list)

    async def start(
        self, workflow_type: str, arg: Any, *, workflow_id: str, task_queue: str, once: bool = False
    ) -> StartedWorkflow:
        return await self.inner.start(
            workflow_type, arg, workflow_id=workflow_id, task_queue=task_queue, once=once
        )

    async def cancel(self, workflow_id: str, run_id: str | None) -> None:
        await self.inner.cancel(workflow_id, run_id)

    async def describe(self, workflow_id: str, run_id: str | None) -> str | None:
        self.described.append(workflow_id)
        return await self.inner.describe(workflow_id, run_id)


def closed_facts(store: EventStore, tenant: str) -> dict[str, tuple[str, str]]:
    """workflow id → (outcome, recorded by) of every ProfileContinuationClosed of the tenant."""
    facts: dict[str, tuple[str, str]] = {}
    for stored in store.read_stream(f"profile-{tenant}"):
        event = store.registry.decode(stored)
        if isinstance(event, ProfileContinuationClosed):
            assert event.workflow_id not in facts  # a continuation closes once
            facts[event.workflow_id] = (event.outcome, event.recorded_by)
    return facts
