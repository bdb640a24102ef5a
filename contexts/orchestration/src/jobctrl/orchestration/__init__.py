"""The orchestration bounded context: workflow runs, pipeline steps, the stage machine, spend,
settings and the profile outbox, plus the Temporal workflows (``workflows``) and activities
(``activities``).

The public face, resolved lazily so importing this package (as every workflow module does, inside
Temporal's sandbox) imports nothing else:

* use cases — ``record_workflow_started``, ``record_workflow_outcome``, ``reconcile_workflow_run``,
  ``record_pipeline_steps``, ``request_workflow_cancellation``; the only writers of ``Workflow*``
  and ``PipelineStep*`` events (ADR 0120);
* the discovery run (ADR 0180) — ``start_discovery_run``, ``report_discovery_progress``,
  ``finish_discovery_run``, ``interrupt_discovery_run``, ``close_orphaned_discovery_run`` and
  ``DiscoveryRunLog`` (discovery's port onto them); the only writers of ``DiscoveryRun*`` events;
* domain — ``DiscoveryRun``, ``progress_total``, ``WorkflowRun``, ``DescribedStatus``,
  ``RunReconciled``, ``ExecutionSteps``, ``LIFECYCLE_TYPES``, ``NOT_FOUND``;
* ``stage_machine.apply_trigger(state, trigger, inputs)`` — the reference JSON adapter (stable);
* the older subpackages (``stages``, ``spend``, ``settings``, ``profile``) by module path until they
  take the same shape.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobctrl.orchestration.domain.discovery_run import DiscoveryRun, progress_total
    from jobctrl.orchestration.domain.execution_steps import ExecutionSteps
    from jobctrl.orchestration.domain.workflow_run import (
        LIFECYCLE_TYPES,
        NOT_FOUND,
        DescribedStatus,
        WorkflowRun,
    )
    from jobctrl.orchestration.ports import CloseInterruptedMembership
    from jobctrl.orchestration.use_cases._runs import load_run
    from jobctrl.orchestration.use_cases.close_orphaned_discovery_run import close_orphaned_discovery_run
    from jobctrl.orchestration.use_cases.discovery_run_log import DiscoveryRunLog
    from jobctrl.orchestration.use_cases.finish_discovery_run import finish_discovery_run
    from jobctrl.orchestration.use_cases.interrupt_discovery_run import interrupt_discovery_run
    from jobctrl.orchestration.use_cases.reconcile_workflow_run import RunReconciled, reconcile_workflow_run
    from jobctrl.orchestration.use_cases.record_pipeline_steps import record_pipeline_steps
    from jobctrl.orchestration.use_cases.record_workflow_outcome import record_workflow_outcome
    from jobctrl.orchestration.use_cases.record_workflow_started import record_workflow_started
    from jobctrl.orchestration.use_cases.report_discovery_progress import report_discovery_progress
    from jobctrl.orchestration.use_cases.request_workflow_cancellation import request_workflow_cancellation
    from jobctrl.orchestration.use_cases.start_discovery_run import start_discovery_run

_EXPORTS: dict[str, str] = {
    "record_workflow_started": "jobctrl.orchestration.use_cases.record_workflow_started",
    "record_workflow_outcome": "jobctrl.orchestration.use_cases.record_workflow_outcome",
    "reconcile_workflow_run": "jobctrl.orchestration.use_cases.reconcile_workflow_run",
    "RunReconciled": "jobctrl.orchestration.use_cases.reconcile_workflow_run",
    "record_pipeline_steps": "jobctrl.orchestration.use_cases.record_pipeline_steps",
    "request_workflow_cancellation": "jobctrl.orchestration.use_cases.request_workflow_cancellation",
    "load_run": "jobctrl.orchestration.use_cases._runs",
    "WorkflowRun": "jobctrl.orchestration.domain.workflow_run",
    "DescribedStatus": "jobctrl.orchestration.domain.workflow_run",
    "LIFECYCLE_TYPES": "jobctrl.orchestration.domain.workflow_run",
    "NOT_FOUND": "jobctrl.orchestration.domain.workflow_run",
    "ExecutionSteps": "jobctrl.orchestration.domain.execution_steps",
    "DiscoveryRun": "jobctrl.orchestration.domain.discovery_run",
    "progress_total": "jobctrl.orchestration.domain.discovery_run",
    "start_discovery_run": "jobctrl.orchestration.use_cases.start_discovery_run",
    "report_discovery_progress": "jobctrl.orchestration.use_cases.report_discovery_progress",
    "finish_discovery_run": "jobctrl.orchestration.use_cases.finish_discovery_run",
    "interrupt_discovery_run": "jobctrl.orchestration.use_cases.interrupt_discovery_run",
    "close_orphaned_discovery_run": "jobctrl.orchestration.use_cases.close_orphaned_discovery_run",
    "DiscoveryRunLog": "jobctrl.orchestration.use_cases.discovery_run_log",
    "CloseInterruptedMembership": "jobctrl.orchestration.ports",
}

__all__ = [
    "LIFECYCLE_TYPES",
    "NOT_FOUND",
    "CloseInterruptedMembership",
    "DescribedStatus",
    "DiscoveryRun",
    "DiscoveryRunLog",
    "ExecutionSteps",
    "RunReconciled",
    "WorkflowRun",
    "close_orphaned_discovery_run",
    "finish_discovery_run",
    "interrupt_discovery_run",
    "load_run",
    "progress_total",
    "reconcile_workflow_run",
    "record_pipeline_steps",
    "record_workflow_outcome",
    "record_workflow_started",
    "report_discovery_progress",
    "request_workflow_cancellation",
    "start_discovery_run",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'jobctrl.orchestration' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
