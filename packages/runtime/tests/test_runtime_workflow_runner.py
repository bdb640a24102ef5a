"""The worker's workflow runner (ADR 0381) on the real dev server, running the bench's no-op
workflow: with the default converter it answers serialization contexts outside the sandbox and the
histories are the stock runner's, byte for byte; with a payload codec it is the stock runner, so the
codec still sees each command's context."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest
from temporalio.api.common.v1 import Payload
from temporalio.client import Client
from temporalio.converter import (
    ActivitySerializationContext,
    DataConverter,
    PayloadCodec,
    SerializationContext,
    WithSerializationContext,
)
from temporalio.worker import Worker, WorkflowRunner

from jobctrl.runtime.workflow_runner import (
    ContextFreeSandboxedRunner,
    is_context_free,
    sandbox_runner,
    worker_runner,
)
from jobctrl.testing.bench.temporal import BenchNoopWorkflow, NoopInput, bench_noop

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


class _RecordingCodec(PayloadCodec, WithSerializationContext):
    """An identity codec that records the serialization context of every call."""

    def __init__(self, seen: list[SerializationContext | None], context: SerializationContext | None = None):
        self.seen, self.context = seen, context

    def with_context(self, context: SerializationContext) -> _RecordingCodec:
        return _RecordingCodec(self.seen, context)

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        self.seen.append(self.context)
        return list(payloads)

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        self.seen.append(self.context)
        return list(payloads)


async def _run(client: Client, runner: WorkflowRunner) -> tuple[int, list[bytes]]:
    queue = f"runner-{uuid.uuid4().hex[:8]}"
    with ThreadPoolExecutor(4) as executor:
        async with Worker(
            client, task_queue=queue, workflows=[BenchNoopWorkflow], activities=[bench_noop],
            activity_executor=executor, workflow_runner=runner,
        ):  # fmt: skip
            handle = await client.start_workflow(
                BenchNoopWorkflow.run, NoopInput(4), id=queue, task_queue=queue
            )
            result = await handle.result()
    history = await handle.fetch_history()
    payloads = [
        p.data
        for e in history.events
        for field in ("activity_task_scheduled_event_attributes", "activity_task_completed_event_attributes")
        if e.HasField(field)
        for p in (getattr(e, field).input if "scheduled" in field else getattr(e, field).result).payloads
    ]
    return result, payloads


def test_the_default_converter_is_context_free_and_a_codec_is_not() -> None:
    assert is_context_free(DataConverter.default)
    assert isinstance(worker_runner(DataConverter.default), ContextFreeSandboxedRunner)
    with_codec = DataConverter(payload_codec=_RecordingCodec([]))
    assert not is_context_free(with_codec)
    assert not isinstance(worker_runner(with_codec), ContextFreeSandboxedRunner)
    # Same sandbox either way: jobctrl passed through, the SDK's restrictions otherwise.
    assert worker_runner(DataConverter.default).restrictions == sandbox_runner().restrictions


@pytest.mark.asyncio
async def test_the_context_free_runner_writes_the_stock_runners_payloads(temporal_address: str) -> None:
    client = await Client.connect(temporal_address)
    stock = await _run(client, sandbox_runner())
    ours = await _run(client, worker_runner(client.data_converter))
    assert ours == stock
    assert ours[0] == 8 and len(ours[1]) == 8  # four activities: an input and a result each


@pytest.mark.asyncio
async def test_a_codec_still_sees_each_activitys_context(temporal_address: str) -> None:
    seen: list[SerializationContext | None] = []
    plain = await Client.connect(temporal_address)
    client = Client(plain.service_client, data_converter=DataConverter(payload_codec=_RecordingCodec(seen)))
    result, _ = await _run(client, worker_runner(client.data_converter))
    assert result == 8
    activity_types = {c.activity_type for c in seen if isinstance(c, ActivitySerializationContext)}
    assert activity_types == {"bench_noop"}
