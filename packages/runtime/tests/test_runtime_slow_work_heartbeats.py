"""Slow but live work is never timed out by its heartbeat timeout (ADR 0310).

A run's heartbeat timeout is how quickly a dead worker is noticed (2 minutes by default, seconds in
the crash tests).  Work that is alive but slow, a model taking minutes to answer or a polite crawl
of a large board, must not be mistaken for a dead worker: the step would be retried (and, if the
first attempt is still working, run twice at once).

On the real dev server, with a 1 s heartbeat timeout: a sync activity working 3 s without beating is
timed out, and with :func:`heartbeating` it is not; a board whose listing and a model whose first
answer are held until the waiting activity has been seen heartbeating prepare the job with every
step at its first attempt.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from temporalio import activity, workflow
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowFailureError
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, TimeoutError, TimeoutType
from temporalio.service import RPCError
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from jobctrl.activity_contracts.threads import beat_interval, heartbeating
from jobctrl.discovery.sample_board.misbehaviour import LISTING_PATHS
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.kernel.store import Database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration.workflows.discover import DiscoverResult, DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.ids import (
    discover_workflow_id,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.runtime.pipeline import save_profile
from jobctrl.testing.llm_server import Canned, tool_call_completion
from jobctrl.testing.runtime.pipeline import composed_worker, one_posting_world

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
HEARTBEAT_TIMEOUT_S = 1.0
SLOW_S = 3.0  # three heartbeat timeouts
MODEL_S = 1.5  # longer than the heartbeat timeout
HOLD_LIMIT_S = 60.0
TENANT = "local"


@activity.defn(name="slow_with_heartbeats")
def slow_with_heartbeats(seconds: float) -> str:
    with heartbeating():
        time.sleep(seconds)  # the work itself: a call that answers slowly
    return "done"


@activity.defn(name="slow_without_heartbeats")
def slow_without_heartbeats(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


@dataclass(frozen=True)
class SlowInput:
    activity_name: str
    seconds: float


@workflow.defn(name="SlowWorkWorkflow")
class SlowWorkWorkflow:
    @workflow.run
    async def run(self, params: SlowInput) -> str:
        result: str = await workflow.execute_activity(
            params.activity_name,
            params.seconds,
            result_type=str,
            start_to_close_timeout=timedelta(seconds=60),
            heartbeat_timeout=timedelta(seconds=HEARTBEAT_TIMEOUT_S),
            retry_policy=RetryPolicy(maximum_attempts=1),
        )
        return result


def test_the_beat_fits_twice_into_any_heartbeat_timeout() -> None:
    assert beat_interval(120.0) == 1.0 and beat_interval(None) == 1.0
    assert beat_interval(0.9) == pytest.approx(0.3)


def test_outside_an_activity_the_block_just_runs() -> None:
    ran: list[int] = []
    with heartbeating():
        ran.append(1)
    assert ran == [1] and not [t for t in threading.enumerate() if t.name.startswith("beat-")]


@pytest.mark.asyncio
async def test_a_slow_sync_activity_lives_only_while_it_heartbeats(temporal_address: str) -> None:
    client = await Client.connect(temporal_address)
    queue = f"slow-{uuid.uuid4().hex[:8]}"
    with ThreadPoolExecutor(max_workers=2) as executor:
        async with Worker(
            client, task_queue=queue, workflows=[SlowWorkWorkflow],
            activities=[slow_with_heartbeats, slow_without_heartbeats], activity_executor=executor,
            workflow_runner=UnsandboxedWorkflowRunner(),
        ):  # fmt: skip
            beating = await client.execute_workflow(
                SlowWorkWorkflow.run, SlowInput("slow_with_heartbeats", SLOW_S), id=f"{queue}-beat",
                task_queue=queue,
            )  # fmt: skip
            with pytest.raises(WorkflowFailureError) as silent:
                await client.execute_workflow(
                    SlowWorkWorkflow.run, SlowInput("slow_without_heartbeats", SLOW_S), id=f"{queue}-silent",
                    task_queue=queue,
                )  # fmt: skip
    assert beating == "done"
    cause = silent.value.cause
    assert isinstance(cause, ActivityError) and isinstance(cause.cause, TimeoutError)
    assert cause.cause.type is TimeoutType.HEARTBEAT
    # Each beat thread ended with its activity.
    assert not [t for t in threading.enumerate() if t.name.startswith("beat-")]


class HeldModel:
    """A well-behaved model whose first answer (Score's requirement extraction) is held until
    ``release`` is set, so the test can see Score heartbeat while it waits; every later answer
    takes ``MODEL_S``."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Canned:
        tool: str = body["tools"][0]["function"]["name"]
        user = "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")
        args: dict[str, Any]
        if tool == "RequirementExtraction":
            self.release.wait(HOLD_LIMIT_S)
            python = {"text": "Experience with Python", "tier": "must_have", "kind": "skill", "weight": 3,
                      "keywords": ["Python"]}  # fmt: skip
            args = {"requirements": [python]}
        elif tool == "EvidenceMatching":
            evidence = json.loads(user)["profile"]["evidence"]
            cited = next(e["id"] for e in evidence if e["text"] == "Python")
            args = {"matches": [{"requirement_index": 0, "fit": "direct", "evidence_ids": [cited]}]}
        elif tool == "ResumeDraft":
            summary = {"text": "Backend engineer with 8 years of experience building payment systems.",
                       "sources": ["sum-1"]}  # fmt: skip
            args = {"summary": [summary]}
        elif tool == "CoverLetterDraft":
            paragraph = {
                "text": "Cut p99 checkout latency by 40% across 12 services.",
                "sources": ["b-globex-1"],
            }
            args = {"salutation": "Dear Hiring Team,", "paragraphs": [paragraph]}
        else:
            return Canned(400, {"error": {"message": f"unexpected tool {tool}"}})
        return Canned(200, tool_call_completion(tool, args), delay_seconds=MODEL_S)


async def _beating(client: Client, workflow_id: str, activity_type: str) -> int:
    """Await (bounded) a heartbeat of the workflow's running ``activity_type`` after its start; the
    attempt that beat."""
    deadline = time.monotonic() + HOLD_LIMIT_S
    while time.monotonic() < deadline:
        try:
            description = await client.get_workflow_handle(workflow_id).describe()
        except RPCError:  # not started yet
            description = None
        for pending in description.raw_description.pending_activities if description else []:
            # Only a beat carries details (the seconds worked): the server shows a started
            # activity's start as its last heartbeat time until one arrives, so that time proves nothing.
            if pending.activity_type.name == activity_type and pending.heartbeat_details.payloads:
                return pending.attempt
        await asyncio.sleep(0.1)
    raise AssertionError(f"{activity_type} of {workflow_id} never heartbeat within {HOLD_LIMIT_S} s")


async def _step_attempts(client: Client, workflow_id: str) -> dict[str, int]:
    """Each activity's attempt when it last started, and any timed out for good, from the history
    (the server records a retried activity's start once, with the attempt that ran last)."""
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    names: dict[int, str] = {}
    attempts: dict[str, int] = {}
    for event in history.events:
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            names[event.event_id] = event.activity_task_scheduled_event_attributes.activity_type.name
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            started = event.activity_task_started_event_attributes
            attempts[names[started.scheduled_event_id]] = started.attempt
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
            timed_out = event.activity_task_timed_out_event_attributes
            attempts[f"timed out: {names[timed_out.scheduled_event_id]}"] = 0
    return attempts


@pytest.mark.asyncio
async def test_a_held_board_and_a_held_model_are_waited_for_with_no_step_retried(
    temporal_address: str, database: Database, tmp_path: Path
) -> None:
    """The board's listing and the model's first answer are held until the waiting activity (the
    family's crawl, then Score) has been seen heartbeating: code that does not beat never releases
    them and fails here; code that beats prepares the job with every step at its first attempt."""
    listing_released = threading.Event()
    with one_posting_world(database, tmp_path, model="slow-model", api_key="k") as world:
        model, sources, comp = world.server, world.sources, world.comp
        held = HeldModel()
        model.responder = held
        listing = LISTING_PATHS["greenhouse"].format(world.posting.board)
        world.board.server.hold_route(listing, listing_released)
        async with composed_worker(comp, temporal_address) as worker:
            client = worker.rt.client
            await asyncio.to_thread(save_profile, comp, SAMPLE_PROFILE)
            await asyncio.to_thread(register_sources, comp.store, sources, clock=comp.clock, tenant_id=TENANT)
            ids = [s.source_id for s in sources]
            run = DiscoverWorkflowInput(
                tenant=TENANT, source_ids=ids, heartbeat_timeout_s=HEARTBEAT_TIMEOUT_S
            )
            queue = worker.rt.worker.task_queue
            try:
                handle = await client.start_workflow(
                    DiscoverWorkflow.run, run, id=discover_workflow_id(TENANT), task_queue=queue
                )
                family_attempt = await _beating(client, handle.id, "discovery_source_family")
                listing_released.set()
                discover: DiscoverResult = await handle.result()
                targets = comp.facts.targets(TENANT, discover.execution.temporal_run_id, "observed_this_run")
                assert len(targets) == 1, discover  # the family was crawled
                [target] = targets
                key = preparation_idempotency_key(
                    TENANT, target.job_id, target.kind, target.target_version, target.source_event_id
                )
                score_attempt = await _beating(client, preparation_workflow_id(key), "score_job")
                held.release.set()
                result = await client.get_workflow_handle(preparation_workflow_id(key)).result()
            finally:  # a failed wait never leaves the servers holding
                listing_released.set()
                held.release.set()
            discovering = await _step_attempts(client, discover_workflow_id(TENANT))
            preparing = await _step_attempts(client, preparation_workflow_id(key))
        calls = [r["body"]["tools"][0]["function"]["name"] for r in model.requests
                 if r["path"].endswith("/chat/completions")]  # fmt: skip

    assert (family_attempt, score_attempt) == (1, 1)
    # The slow activities each ran once, at their first attempt: none was timed out while working.
    assert (discovering["discovery_source_family"], discovering["plan_discovery_sources"]) == (1, 1), (
        discovering
    )
    assert {preparing[s] for s in ("score_job", "tailor_job", "cover_letter", "render_pdf")} == {1}, preparing
    assert not [k for k in (discovering | preparing) if k.startswith("timed out")]
    assert not (result.get("stopReason") or result.get("stop_reason")), result
    assert comp.facts.pdf_ready(target.job_id)
    assert sorted(calls) == ["CoverLetterDraft", "EvidenceMatching", "RequirementExtraction", "ResumeDraft"]
