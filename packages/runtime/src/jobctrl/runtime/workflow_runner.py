"""The sandboxed workflow runner the worker uses (ADR 0381).

The SDK's worker visits every payload of an activation and of its completion six times (codec,
external storage, storage references; each way) and, for each, asks the workflow instance which
serialization context applies.  The sandbox answers that by compiling and running code inside the
sandbox (``exec`` under its importer) once per payload sequence: ADR 0360 found those visitors at
~47% of the event loop in the pipeline bench.  The answer only ever reaches the payload codec and
the external storage driver (payload conversion itself runs inside the sandbox with its own
converter), so a worker whose data converter has neither gets the same bytes whatever the context.

``worker_runner(converter)`` is the SDK's ``SandboxedWorkflowRunner`` (same restrictions, jobctrl
passed through) whose instances answer "no context" without entering the sandbox when the converter
is context-free, and the stock sandboxed instance otherwise: a codec or external storage added
later gets its per-command contexts back with no change here.
"""

from __future__ import annotations

from dataclasses import dataclass

import temporalio.bridge.proto.workflow_activation
import temporalio.bridge.proto.workflow_completion
import temporalio.converter
import temporalio.workflow
from temporalio.converter import DataConverter, SerializationContext, StorageDriverStoreContext
from temporalio.worker import WorkflowInstance, WorkflowInstanceDetails
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

Activation = temporalio.bridge.proto.workflow_activation.WorkflowActivation
Completion = temporalio.bridge.proto.workflow_completion.WorkflowActivationCompletion


def sandbox_runner() -> SandboxedWorkflowRunner:
    """The SDK's sandboxed runner, jobctrl passed through (its modules are import-side-effect free
    and deterministic to share): what the no-op baseline and the replay tests run on."""
    return SandboxedWorkflowRunner(
        restrictions=SandboxRestrictions.default.with_passthrough_modules("jobctrl")
    )


def is_context_free(converter: DataConverter) -> bool:
    """True when no serialization context can change what ``converter`` does to a workflow's
    payloads outside the sandbox: it has no payload codec and no external storage."""
    return converter.payload_codec is None and converter.external_storage is None


class _ContextFreeInstance(WorkflowInstance):
    """A sandboxed instance whose serialization context is answered outside the sandbox."""

    def __init__(self, sandboxed: WorkflowInstance) -> None:
        self._sandboxed = sandboxed

    def activate(self, act: Activation) -> Completion:
        return self._sandboxed.activate(act)

    def get_serialization_context(self, command_info: object) -> SerializationContext | None:
        return None  # the context-free converter: the SDK then uses it as is

    def get_external_store_context(self, command_info: object) -> StorageDriverStoreContext:
        return StorageDriverStoreContext(target=None)  # no external storage to read it

    def get_info(self) -> temporalio.workflow.Info:
        return self._sandboxed.get_info()

    def get_thread_id(self) -> int | None:
        return self._sandboxed.get_thread_id()  # the deadlock detector interrupts this thread


@dataclass(frozen=True)
class ContextFreeSandboxedRunner(SandboxedWorkflowRunner):
    """``SandboxedWorkflowRunner`` whose instances skip the per-payload sandbox round trip."""

    def create_instance(self, det: WorkflowInstanceDetails) -> WorkflowInstance:
        return _ContextFreeInstance(super().create_instance(det))


def worker_runner(converter: DataConverter) -> SandboxedWorkflowRunner:
    """The runner for a worker whose client converts with ``converter``."""
    restrictions = sandbox_runner().restrictions
    if is_context_free(converter):
        return ContextFreeSandboxedRunner(restrictions=restrictions)
    return SandboxedWorkflowRunner(restrictions=restrictions)
