"""Orchestration's ``drain_profile_outbox`` use case (ADR 0262), driven directly: the real store on
SQLite and PostgreSQL, the real dev server through the runtime's ``TemporalContinuations`` (no worker:
a started continuation stays open, so the drain meets it running, then terminated)."""

from __future__ import annotations

import uuid

import pytest
from temporalio.client import Client, WorkflowExecutionStatus

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import (
    IntentStatus,
    ProfileContinuationInput,
    SaveOutcome,
    drain_profile_outbox,
    load_profile,
    save_profile,
)
from jobctrl.orchestration.events import ProfileContinuationClosed, ProfileUpdated
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.runtime.outbox import TemporalContinuations

pytestmark = pytest.mark.both_databases


def _profile(summary: str) -> dict[str, object]:
    return {
        "summary": [{"id": "sum-1", "text": summary}],
        "skills": [{"id": "s-1", "name": "S", "skills": ["sql"]}],
    }


async def _input_of(client: Client, workflow_id: str) -> ProfileContinuationInput:
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    started = history.events[0].workflow_execution_started_event_attributes
    [arg] = await client.data_converter.decode(started.input.payloads, [ProfileContinuationInput])
    assert isinstance(arg, ProfileContinuationInput)
    return arg


@pytest.mark.asyncio
async def test_the_drain_starts_attaches_chains_and_closes_what_temporal_ended(
    temporal_address: str, database: Database
) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    client = await Client.connect(temporal_address)
    tenant = f"t{uuid.uuid4().hex[:10]}"  # continuation ids are keyed by tenant: unique on the shared server
    continuations = TemporalContinuations(
        TemporalWorkflowControl.for_client(client), task_queue=f"outbox-{uuid.uuid4().hex[:8]}"
    )
    started: list[str] = []
    try:
        assert save_profile(store, _profile("Backend engineer"), tenant_id=tenant) is SaveOutcome.UPDATED
        first = await drain_profile_outbox(store, continuations, tenant_id=tenant)
        assert (len(first.started), first.attached, first.closed) == (1, [], [])
        [one] = first.started
        started.append(one)
        [intent] = load_profile(store, tenant_id=tenant).intents.values()
        assert (intent.workflow_id, intent.status) == (one, IntentStatus.DISPATCH_INTENDED)
        assert await _input_of(client, one) == ProfileContinuationInput(
            tenant=tenant, profile_version=1, profile_event_id=intent.profile_event_id, after=[]
        )

        again = await drain_profile_outbox(store, continuations, tenant_id=tenant)
        assert (again.started, again.attached, again.closed) == ([], [one], [])  # open: left running

        assert save_profile(store, _profile("Data engineer"), tenant_id=tenant) is SaveOutcome.UPDATED
        second = await drain_profile_outbox(store, continuations, tenant_id=tenant)
        assert second.attached == [one] and len(second.started) == 1
        two = second.started[0]
        started.append(two)
        updated = [
            s.event_id
            for s in store.read_stream(f"profile-{tenant}")
            if s.event_type == ProfileUpdated.event_type
        ]
        assert await _input_of(client, two) == ProfileContinuationInput(
            tenant=tenant, profile_version=2, profile_event_id=updated[-1], after=[one]
        )  # the newer one awaits the older, still open

        await client.get_workflow_handle(one).terminate("ended outside the workflow")
        third = await drain_profile_outbox(store, continuations, tenant_id=tenant)
        assert (third.started, third.attached, third.closed) == ([], [two], [one])
        closed = [
            e for e in (store.registry.decode(s) for s in store.read_stream(f"profile-{tenant}"))
            if isinstance(e, ProfileContinuationClosed)
        ]  # fmt: skip
        assert [(c.workflow_id, c.outcome, c.recorded_by) for c in closed] == [
            (one, "terminated", "outbox_drain")
        ]
        log_size = store.head_position()
        fourth = await drain_profile_outbox(store, continuations, tenant_id=tenant)
        assert (fourth.started, fourth.attached, fourth.closed) == (
            [],
            [two],
            [],
        )  # the closed one: never again
        assert store.head_position() == log_size
    finally:
        for workflow_id in started:
            handle = client.get_workflow_handle(workflow_id)
            if (await handle.describe()).status == WorkflowExecutionStatus.RUNNING:
                await handle.terminate("test over")
