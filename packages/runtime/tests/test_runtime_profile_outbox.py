"""The profile outbox delivered to Temporal (issue 6, ADR 0074), on the real dev server.

A genuine change starts exactly one ProfileContinuationWorkflow under its deterministic id, which
prepares every target job (score → tailor → cover → pdf) under the new profile version; draining
again starts nothing new; a normalized no-op starts nothing; an intent left by a save made while no
worker ran is delivered by the worker's start-up drain; a PATCH /v1/profile drains, and without
Temporal the save still commits and the intent waits in the outbox.  Every continuation ends with its
terminal fact (success, failure and cancel from the workflow, a terminated run from the next drain), and
a closed one is never described or started again, even where Temporal no longer knows it (ADR 0077).
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from temporalio import activity
from temporalio.client import Client, WorkflowFailureError
from temporalio.exceptions import ApplicationError

from jobctrl.activity_contracts.contracts import (
    PreparationStepInput,
    PreparationStepResult,
)
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import load_profile, record_profile_dispatches, save_profile
from jobctrl.orchestration.domain.profile.aggregate import IntentStatus, SaveOutcome, continuation_workflow_id
from jobctrl.orchestration.events import ProfileContinuationClosed, ProfileUpdated
from jobctrl.orchestration.workflows.continuation import (
    STATUS_ACTIVITY,
    TARGETS_ACTIVITY,
    WORKFLOW_TYPE,
    ContinuationTargetsInput,
    ProfileContinuationResult,
    continuation_key,
)
from jobctrl.orchestration.workflows.continuation import ContinuationTargets as TargetList
from jobctrl.orchestration.workflows.ids import preparation_workflow_id
from jobctrl.runtime.activities import ActivityFn
from jobctrl.runtime.activities.ports import PreparationTarget
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.workflow_control import (
    StartedWorkflow,
    TemporalWorkflowControl,
    WorkflowAlreadyRunning,
)
from jobctrl.runtime.outbox import drain_profile_outbox
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings
from jobctrl.runtime.worker import WorkerRuntime
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness, activity_attempts
from jobctrl.testing.runtime.server import OTHER_NAMESPACE

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


@pytest.mark.asyncio
async def test_a_genuine_change_starts_one_continuation_and_a_second_drain_starts_nothing(
    harness: Harness,
) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"
    fakes, scores = FakeContexts(), ScoreCalls()
    fakes.hold.set()  # keep the preparations open so the second drain meets a running continuation
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        assert save_profile(rw.store, PROFILE, tenant_id=tenant) is SaveOutcome.UPDATED
        control = TemporalWorkflowControl.for_client(rw.client)
        event_id = updated_event_id(rw.store, tenant)
        expected = continuation_workflow_id(tenant, event_id)

        first = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        assert first.started == [expected]
        again = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        assert again.started == [] and again.attached == [expected]

        fakes.hold.clear()
        result = await asyncio.wait_for(
            rw.client.get_workflow_handle(expected, result_type=ProfileContinuationResult).result(), 30
        )
        assert (result.profile_version, result.prepared, result.failed) == (1, len(JOBS), 0)
        await wait_prepared(rw.client, tenant, 1, event_id)
        # Score is asked under the new version (never forced); tailor, cover and pdf follow per job.
        assert sorted(scores.seen) == [(j, 1) for j in JOBS]
        assert {(j, s) for j, s in fakes.step_calls} == {
            (j, s) for j in JOBS for s in ("tailor", "cover", "pdf")
        }

        # Closed now: a third drain neither restarts nor re-attaches; exactly one execution exists.
        third = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        assert third.started == [] and third.attached == []
        assert await runs_of(rw.client, expected) == 1
        with pytest.raises(WorkflowAlreadyRunning):  # the id is never reused, even if a drain raced
            await control.start(
                WORKFLOW_TYPE, None, workflow_id=expected, task_queue=rw.task_queue, once=True
            )

        # A normalized no-op (whitespace, reordered keys) records nothing and starts nothing.
        noop = {"skills": skills_of("  python", "sql "), "summary": summary_of("Backend    engineer")}
        assert save_profile(rw.store, noop, tenant_id=tenant) is SaveOutcome.NO_CHANGE
        after_noop = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        assert after_noop.started == []
        assert len(scores.seen) == len(JOBS)


@pytest.mark.asyncio
async def test_the_worker_start_up_drains_an_intent_left_while_no_worker_ran(
    harness: Harness, database: Database
) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"
    store = harness.store
    save_profile(store, PROFILE, tenant_id=tenant)
    save_profile(
        store, {**PROFILE, "skills": skills_of("python", "sql", "go")}, tenant_id=tenant
    )  # two never-started intents
    newest_event = updated_event_id(store, tenant)
    expected = continuation_workflow_id(tenant, newest_event)

    fakes, scores = FakeContexts(), ScoreCalls()
    client = await harness.client()
    runtime = WorkerRuntime(
        client=client,
        db=database,
        store=store,
        settings=FixedSettings(RuntimeSettings()),
        spend=harness.spend,
        task_queue=f"test-{uuid.uuid4().hex[:12]}",
        overrides=[*fakes.activities(), scores.activity()],
        tenant=tenant,
        targets=ContinuationTargets(),
    )
    task = asyncio.create_task(runtime.run())
    try:
        await asyncio.wait_for(runtime.ready.wait(), 30)
        result = await asyncio.wait_for(
            client.get_workflow_handle(expected, result_type=ProfileContinuationResult).result(), 30
        )
        assert (result.profile_version, result.prepared) == (2, len(JOBS))
        await wait_prepared(client, tenant, 2, newest_event)
    finally:
        runtime.stop()
        await asyncio.wait_for(task, 30)
    # The older revision never started: coalesced into the newest, so only version 2 was prepared;
    # version 2's run recorded its terminal fact before it closed.
    statuses = {i.profile_version: i.status for i in load_profile(store, tenant_id=tenant).intents.values()}
    assert statuses == {1: IntentStatus.COALESCED, 2: IntentStatus.CLOSED}
    assert sorted(scores.seen) == [(j, 2) for j in JOBS]
    older = continuation_workflow_id(tenant, updated_event_id(store, tenant, 0))
    assert await runs_of(client, older) == 0


def api_client(db_url: str, control: TemporalWorkflowControl) -> Iterator[TestClient]:
    app = create_app(ApiConfig(database_url=db_url, sse_poll_s=0.05, control=control))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.mark.asyncio
async def test_a_profile_patch_drains_and_without_temporal_the_intent_waits(
    db_url: str, harness: Harness, temporal_address: str
) -> None:
    store = harness.store
    summary = f"Engineer {uuid.uuid4().hex[:8]}"  # a fresh ProfileUpdated id on the shared server
    queue = f"api-outbox-{uuid.uuid4().hex[:8]}"  # no worker polls it: the continuation stays open

    # Temporal unreachable: the save commits (200) and its intent stays queued for the next drain.
    for client in api_client(db_url, TemporalWorkflowControl("127.0.0.1:1", connect_timeout_s=1)):
        assert client.patch("/v1/settings", json={"taskQueue": queue}).status_code == 200
        saved = client.patch("/v1/profile", json={"summary": summary_of(summary)})
        assert saved.status_code == 200, saved.text
        assert saved.json()["outcome"] == "updated"
    intents = list(load_profile(store).intents.values())
    assert [i.status for i in intents] == [IntentStatus.QUEUED]

    # Temporal reachable: the next save drains, starting the pending continuation by its id.
    for client in api_client(db_url, TemporalWorkflowControl(temporal_address)):
        saved = client.patch("/v1/profile", json={"skills": skills_of("python")})
        assert saved.status_code == 200 and saved.json()["outcome"] == "updated"
    profile = load_profile(store)
    started = [i for i in profile.intents.values() if i.status is IntentStatus.DISPATCH_INTENDED]
    assert [i.profile_version for i in started] == [2]
    control = TemporalWorkflowControl(temporal_address)  # the test's own loop, its own connection
    assert await control.describe(started[0].workflow_id, None) == "RUNNING"
    assert await control.describe(intents[0].workflow_id, None) is None  # coalesced: never started
    await control.cancel(started[0].workflow_id, None)


@pytest.mark.asyncio
async def test_a_newer_continuation_awaits_the_older_one_still_running(harness: Harness) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"
    fakes, scores = FakeContexts(), ScoreCalls()
    fakes.hold.set()  # version 1's tailoring stays open
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        control = TemporalWorkflowControl.for_client(rw.client)
        save_profile(rw.store, PROFILE, tenant_id=tenant)
        first = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        save_profile(rw.store, {**PROFILE, "summary": summary_of("Staff engineer")}, tenant_id=tenant)
        second = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        assert second.attached == first.started and len(second.started) == 1  # v1 was intended: not coalesced
        # Awaited, not slept on: v1 scored both jobs and the newer continuation polled the older one's
        # status at least twice (so it has been waiting across a durable timer) ...
        newer_id = second.started[0]
        deadline = asyncio.get_running_loop().time() + 30
        while not (
            len(scores.seen) >= len(JOBS)
            and await activity_attempts(rw.client, newer_id, STATUS_ACTIVITY) >= 2
        ):
            assert asyncio.get_running_loop().time() < deadline, (scores.seen, "the newer never polled twice")
            await asyncio.sleep(0.1)
        assert sorted(scores.seen) == [(j, 1) for j in JOBS]  # ... and v2 has not started preparing
        fakes.hold.clear()
        newer = rw.client.get_workflow_handle(second.started[0], result_type=ProfileContinuationResult)
        result = await asyncio.wait_for(newer.result(), 30)
        assert (result.profile_version, result.prepared) == (2, len(JOBS))
        older = await rw.client.get_workflow_handle(first.started[0]).describe()
        assert older.close_time is not None and result is not None
        assert [v for _, v in scores.seen] == [1, 1, 2, 2]  # every v1 score precedes every v2 score


# -- the terminal fact (ADR 0077) -----------------------------------------------------------------
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


@pytest.mark.asyncio
async def test_a_closed_continuation_is_never_restarted_once_temporal_forgot_it(harness: Harness) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"
    fakes, scores = FakeContexts(), ScoreCalls()
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        control = TemporalWorkflowControl.for_client(rw.client)
        save_profile(rw.store, PROFILE, tenant_id=tenant)
        (done,) = (
            await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        ).started
        await asyncio.wait_for(rw.client.get_workflow_handle(done).result(), 30)
        # Its last step recorded the terminal fact, before Temporal closed it.
        assert closed_facts(rw.store, tenant) == {done: ("succeeded", "workflow")}
        # A second revision whose start was lost after its dispatch intent (intended, never started).
        save_profile(rw.store, {**PROFILE, "summary": summary_of("Staff engineer")}, tenant_id=tenant)
        (lost,) = record_profile_dispatches(rw.store, lambda workflow_id: False, tenant_id=tenant)
        assert await control.describe(lost.workflow_id, None) is None

    # Another namespace of the same dev server knows neither execution: the view a drain gets once
    # Temporal's retention has purged the closed continuation's history.
    forgetful = RecordingControl(TemporalWorkflowControl(harness.address, namespace=OTHER_NAMESPACE))
    queue = f"nobody-{uuid.uuid4().hex[:8]}"  # no worker: a started continuation stays open
    report = await drain_profile_outbox(harness.store, forgetful, task_queue=queue, tenant_id=tenant)
    try:
        assert report.started == [lost.workflow_id] and report.attached == [] and report.closed == []
        assert forgetful.described == [lost.workflow_id]  # the closed one is not even asked about
        assert await forgetful.describe(done, None) is None  # ... and was not started there
        assert await forgetful.describe(lost.workflow_id, None) == "RUNNING"
        assert len(scores.seen) == len(JOBS)  # prepared once, under version 1
    finally:
        other = await Client.connect(harness.address, namespace=OTHER_NAMESPACE)
        await other.get_workflow_handle(lost.workflow_id).terminate("test cleanup")


@pytest.mark.asyncio
async def test_cancel_records_the_fact_and_a_drain_records_it_for_a_terminated_run(harness: Harness) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"
    fakes, scores = FakeContexts(), ScoreCalls()
    fakes.hold.set()  # version 1's tailoring stays open, so version 2 keeps awaiting it
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        control = TemporalWorkflowControl.for_client(rw.client)
        save_profile(rw.store, PROFILE, tenant_id=tenant)
        (older,) = (
            await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        ).started
        save_profile(rw.store, {**PROFILE, "summary": summary_of("Staff engineer")}, tenant_id=tenant)
        (newer,) = (
            await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        ).started
        try:
            await rw.client.get_workflow_handle(newer).cancel()
            with pytest.raises(WorkflowFailureError):
                await asyncio.wait_for(rw.client.get_workflow_handle(newer).result(), 30)
            assert closed_facts(rw.store, tenant) == {newer: ("canceled", "workflow")}

            # A terminated run cannot record anything itself: the next drain sees it closed and does.
            await rw.client.get_workflow_handle(older).terminate("operator stopped it")
            report = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
            assert (report.started, report.attached, report.closed) == ([], [], [older])
            assert closed_facts(rw.store, tenant) == {
                newer: ("canceled", "workflow"),
                older: ("terminated", "outbox_drain"),
            }
            statuses = {
                i.profile_version: i.status for i in load_profile(rw.store, tenant_id=tenant).intents.values()
            }
            assert statuses == {1: IntentStatus.CLOSED, 2: IntentStatus.CLOSED}
            recording = RecordingControl(control)
            again = await drain_profile_outbox(
                rw.store, recording, task_queue=rw.task_queue, tenant_id=tenant
            )
            assert (again.started, again.attached, again.closed, recording.described) == ([], [], [], [])
        finally:
            fakes.hold.clear()  # the abandoned preparations of version 1 finish before the worker stops
    assert all(v == 1 for _, v in scores.seen)  # version 2 never prepared anything


@pytest.mark.asyncio
async def test_a_failed_continuation_records_its_terminal_fact(harness: Harness) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"

    @activity.defn(name=TARGETS_ACTIVITY)
    def broken_targets(params: ContinuationTargetsInput) -> TargetList:
        raise ApplicationError("targets unreadable", type="configuration", non_retryable=True)

    async with harness.worker([*FakeContexts().activities(), broken_targets]) as rw:
        control = TemporalWorkflowControl.for_client(rw.client)
        save_profile(rw.store, PROFILE, tenant_id=tenant)
        (failed,) = (
            await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        ).started
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(rw.client.get_workflow_handle(failed).result(), 30)
        assert await control.describe(failed, None) == "FAILED"
        assert closed_facts(rw.store, tenant) == {failed: ("failed", "workflow")}
        again = await drain_profile_outbox(rw.store, control, task_queue=rw.task_queue, tenant_id=tenant)
        assert (again.started, again.attached, again.closed) == ([], [], [])
