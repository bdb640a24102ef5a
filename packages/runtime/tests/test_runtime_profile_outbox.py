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
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from jobctrl.kernel.store import Database
from jobctrl.orchestration import load_profile, save_profile
from jobctrl.orchestration.domain.profile.aggregate import IntentStatus, SaveOutcome, continuation_workflow_id
from jobctrl.orchestration.workflows.continuation import (
    STATUS_ACTIVITY,
    WORKFLOW_TYPE,
    ProfileContinuationResult,
)
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.workflow_control import (
    TemporalWorkflowControl,
    WorkflowAlreadyRunning,
)
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings
from jobctrl.runtime.worker import WorkerRuntime
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness, activity_attempts

from .profile_outbox import (
    JOBS,
    PROFILE,
    ContinuationTargets,
    Outbox,
    ScoreCalls,
    runs_of,
    skills_of,
    summary_of,
    updated_event_id,
    wait_prepared,
)


@pytest.mark.asyncio
async def test_a_genuine_change_starts_one_continuation_and_a_second_drain_starts_nothing(
    harness: Harness,
) -> None:
    fakes, scores = FakeContexts(), ScoreCalls()
    fakes.hold.set()  # keep the preparations open so the second drain meets a running continuation
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        outbox = Outbox(rw)
        tenant = outbox.tenant
        assert save_profile(rw.store, PROFILE, tenant_id=tenant) is SaveOutcome.UPDATED
        control = TemporalWorkflowControl.for_client(rw.client)
        event_id = updated_event_id(rw.store, tenant)
        expected = continuation_workflow_id(tenant, event_id)

        first = await outbox.drain()
        assert first.started == [expected]
        again = await outbox.drain()
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
        third = await outbox.drain()
        assert third.started == [] and third.attached == []
        assert await runs_of(rw.client, expected) == 1
        with pytest.raises(WorkflowAlreadyRunning):  # the id is never reused, even if a drain raced
            await control.start(
                WORKFLOW_TYPE, None, workflow_id=expected, task_queue=rw.task_queue, once=True
            )

        # A normalized no-op (whitespace, reordered keys) records nothing and starts nothing.
        noop = {"skills": skills_of("  python", "sql "), "summary": summary_of("Backend    engineer")}
        assert save_profile(rw.store, noop, tenant_id=tenant) is SaveOutcome.NO_CHANGE
        after_noop = await outbox.drain()
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
    fakes, scores = FakeContexts(), ScoreCalls()
    fakes.hold.set()  # version 1's tailoring stays open
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        outbox = Outbox(rw)
        tenant = outbox.tenant
        save_profile(rw.store, PROFILE, tenant_id=tenant)
        first = await outbox.drain()
        save_profile(rw.store, {**PROFILE, "summary": summary_of("Staff engineer")}, tenant_id=tenant)
        second = await outbox.drain()
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
