"""The profile outbox's terminal fact on the real dev server (ADR 0077): every continuation ends with
its terminal fact (success, failure and cancel from the workflow, a terminated run from the next drain),
and a closed one is never described or started again, even where Temporal no longer knows it.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from temporalio import activity
from temporalio.client import Client, WorkflowFailureError
from temporalio.exceptions import ApplicationError

from jobctrl.orchestration import record_profile_dispatches
from jobctrl.orchestration.domain.profile.aggregate import IntentStatus
from jobctrl.orchestration.workflows.continuation import (
    TARGETS_ACTIVITY,
    ContinuationTargetsInput,
)
from jobctrl.orchestration.workflows.continuation import ContinuationTargets as TargetList
from jobctrl.runtime.api.workflow_control import (
    TemporalWorkflowControl,
)
from jobctrl.runtime.outbox import drain_profile_outbox
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.server import OTHER_NAMESPACE

from .profile_outbox import (
    JOBS,
    PROFILE,
    ContinuationTargets,
    Outbox,
    RecordingControl,
    ScoreCalls,
    closed_facts,
    summary_of,
)


@pytest.mark.asyncio
async def test_a_closed_continuation_is_never_restarted_once_temporal_forgot_it(harness: Harness) -> None:
    fakes, scores = FakeContexts(), ScoreCalls()
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        outbox = Outbox(rw)
        done = await outbox.save_and_start(PROFILE)
        await asyncio.wait_for(rw.client.get_workflow_handle(done).result(), 30)
        # Its last step recorded the terminal fact, before Temporal closed it.
        assert closed_facts(rw.store, outbox.tenant) == {done: ("succeeded", "workflow")}
        # A second revision whose start was lost after its dispatch intent (intended, never started).
        outbox.save({**PROFILE, "summary": summary_of("Staff engineer")})
        (lost,) = record_profile_dispatches(rw.store, lambda workflow_id: False, tenant_id=outbox.tenant)
        assert await outbox.control.describe(lost.workflow_id, None) is None

    # Another namespace of the same dev server knows neither execution: the view a drain gets once
    # Temporal's retention has purged the closed continuation's history.
    forgetful = RecordingControl(TemporalWorkflowControl(harness.address, namespace=OTHER_NAMESPACE))
    queue = f"nobody-{uuid.uuid4().hex[:8]}"  # no worker: a started continuation stays open
    report = await drain_profile_outbox(harness.store, forgetful, task_queue=queue, tenant_id=outbox.tenant)
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
    fakes, scores = FakeContexts(), ScoreCalls()
    fakes.hold.set()  # version 1's tailoring stays open, so version 2 keeps awaiting it
    async with harness.worker([*fakes.activities(), scores.activity()], targets=ContinuationTargets()) as rw:
        outbox = Outbox(rw)
        older = await outbox.save_and_start(PROFILE)
        newer = await outbox.save_and_start({**PROFILE, "summary": summary_of("Staff engineer")})
        try:
            await rw.client.get_workflow_handle(newer).cancel()
            with pytest.raises(WorkflowFailureError):
                await asyncio.wait_for(rw.client.get_workflow_handle(newer).result(), 30)
            assert closed_facts(rw.store, outbox.tenant) == {newer: ("canceled", "workflow")}

            # A terminated run cannot record anything itself: the next drain sees it closed and does.
            await rw.client.get_workflow_handle(older).terminate("operator stopped it")
            report = await outbox.drain()
            assert (report.started, report.attached, report.closed) == ([], [], [older])
            assert closed_facts(rw.store, outbox.tenant) == {
                newer: ("canceled", "workflow"),
                older: ("terminated", "outbox_drain"),
            }
            statuses = {i.profile_version: i.status for i in outbox.load().intents.values()}
            assert statuses == {1: IntentStatus.CLOSED, 2: IntentStatus.CLOSED}
            recording = RecordingControl(outbox.control)
            again = await outbox.drain(recording)
            assert (again.started, again.attached, again.closed, recording.described) == ([], [], [], [])
        finally:
            fakes.hold.clear()  # the abandoned preparations of version 1 finish before the worker stops
    assert all(v == 1 for _, v in scores.seen)  # version 2 never prepared anything


@pytest.mark.asyncio
async def test_a_failed_continuation_records_its_terminal_fact(harness: Harness) -> None:
    @activity.defn(name=TARGETS_ACTIVITY)
    def broken_targets(params: ContinuationTargetsInput) -> TargetList:
        raise ApplicationError("targets unreadable", type="configuration", non_retryable=True)

    async with harness.worker([*FakeContexts().activities(), broken_targets]) as rw:
        outbox = Outbox(rw)
        failed = await outbox.save_and_start(PROFILE)
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(rw.client.get_workflow_handle(failed).result(), 30)
        assert await outbox.control.describe(failed, None) == "FAILED"
        assert closed_facts(rw.store, outbox.tenant) == {failed: ("failed", "workflow")}
        again = await outbox.drain()
        assert (again.started, again.attached, again.closed) == ([], [], [])
