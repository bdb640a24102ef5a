"""The lifecycle frame every workflow runs in: ``WorkflowStarted`` first, then exactly one terminal
``Workflow*`` event on the success, failure and cancel paths.

Timeouts, terminations and killed workers cannot record their own outcome; the describe-based
reconciler settles those from Temporal's view of the exact run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TypeVar

from temporalio import workflow
from temporalio.exceptions import ApplicationError, is_cancelled_exception

from jobctrl.activity_contracts.contracts import (
    SpendCheckInput,
    SpendCheckResult,
    WorkflowOutcomeInput,
    WorkflowStartedInput,
)
from jobctrl.kernel.clock import now_iso
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.errors import failure_of

T = TypeVar("T")


class _WorkflowClock:
    """Workflow time (deterministic, replay-safe): ``now_iso(WORKFLOW_CLOCK)`` inside a workflow."""

    def now(self) -> datetime:
        return workflow.now()


WORKFLOW_CLOCK = _WorkflowClock()


#: The patch id guarding the preflight of JobPreparation and ProfileContinuation (ADR 0110): runs
#: recorded before they ran it replay without it.
SPEND_PREFLIGHT_PATCH = "spend-preflight-v1"


async def spend_preflight(tenant: str, workflow_type: str, *, single_attempt: bool = True) -> None:
    """The ceiling gate before any paid work; ``budget_exceeded`` is non-retryable either way."""
    await workflow.execute_activity(
        "check_spend_budget",
        SpendCheckInput(
            tenant_id=tenant, workflow_id=workflow.info().workflow_id, workflow_type=workflow_type
        ),
        result_type=SpendCheckResult,
        start_to_close_timeout=policies.SHORT if single_attempt else policies.HALF_HOUR,
        heartbeat_timeout=None if single_attempt else policies.HEARTBEAT,
        retry_policy=policies.PREFLIGHT if single_attempt else policies.TAIL,
    )


async def spend_preflight_locally(tenant: str, workflow_type: str) -> None:
    """The single-attempt gate of ``spend_preflight`` as a local activity (ADR 0383): the same
    read-only check, timeout and retry policy, inside the workflow task instead of a round trip
    through the server's activity queue; ``budget_exceeded`` stays non-retryable."""
    await workflow.execute_local_activity(
        "check_spend_budget",
        SpendCheckInput(
            tenant_id=tenant, workflow_id=workflow.info().workflow_id, workflow_type=workflow_type
        ),
        result_type=SpendCheckResult,
        start_to_close_timeout=policies.SHORT,
        retry_policy=policies.PREFLIGHT,
    )


#: The patch id that moves the lifecycle records to local activities (ADR 0236): a record is one
#: quick local write, so it runs in the worker that holds the workflow task instead of a round trip
#: through the server's activity queue.  Runs recorded before it replay with the queued activities.
LOCAL_LIFECYCLE_PATCH = "lifecycle-local-records-v1"


async def record_quickly(
    name: str, arg: object, *, result_type: type | None = None, local: bool | None = None
) -> object:
    """A short bookkeeping activity: local under ``LOCAL_LIFECYCLE_PATCH``, queued before it.
    ``local=True``: the caller's own, later patch implies this one (every run under it is newer), so
    no marker is asked for."""
    if local or workflow.patched(LOCAL_LIFECYCLE_PATCH):
        return await workflow.execute_local_activity(
            name,
            arg,
            result_type=result_type,
            start_to_close_timeout=policies.SHORT,
            retry_policy=policies.LIFECYCLE,
        )
    return await workflow.execute_activity(
        name,
        arg,
        result_type=result_type,
        start_to_close_timeout=policies.SHORT,
        retry_policy=policies.LIFECYCLE,
    )


async def run_with_lifecycle(
    workflow_type: str,
    tenant: str,
    summary: dict[str, str],
    body: Callable[[], Awaitable[T]],
    *,
    record_started: bool = True,
) -> T:
    started_at = now_iso(WORKFLOW_CLOCK)
    if record_started:
        await record_quickly("record_workflow_started", _started(workflow_type, tenant, summary, started_at))
    return await _framed(workflow_type, tenant, started_at, body, local=None)


async def run_opened_with_lifecycle(
    workflow_type: str,
    tenant: str,
    summary: dict[str, str],
    body: Callable[[WorkflowStartedInput], Awaitable[T]],
) -> T:
    """``run_with_lifecycle`` whose body records the start itself, first, as part of an activity that
    does more (the preparation's ``open_preparation``, ADR 0391).  The body runs inside the frame, so
    an opening that fails (the gate's ``budget_exceeded``) ends with its terminal outcome as before;
    one whose start record itself failed leaves an outcome alone, which names its run.  The caller's
    patch is newer than ``LOCAL_LIFECYCLE_PATCH``, so the outcome is a local activity without its
    marker."""
    started_at = now_iso(WORKFLOW_CLOCK)
    started = _started(workflow_type, tenant, summary, started_at)
    return await _framed(workflow_type, tenant, started_at, lambda: body(started), local=True)


def _started(
    workflow_type: str, tenant: str, summary: dict[str, str], started_at: str
) -> WorkflowStartedInput:
    info = workflow.info()
    return WorkflowStartedInput(
        workflow_id=info.workflow_id,
        temporal_run_id=info.first_execution_run_id,
        workflow_type=workflow_type,
        tenant_id=tenant,
        started_at=started_at,
        input_summary=summary,
    )


async def _framed(
    workflow_type: str, tenant: str, started_at: str, body: Callable[[], Awaitable[T]], *, local: bool | None
) -> T:
    """Exactly one terminal ``Workflow*`` record after ``body``, on its success, failure and cancel."""
    info = workflow.info()

    async def outcome(
        status: str, code: str | None = None, message: str | None = None, retry: bool = False
    ) -> None:
        await record_quickly(
            "record_workflow_outcome",
            WorkflowOutcomeInput(
                workflow_id=info.workflow_id,
                temporal_run_id=info.first_execution_run_id,
                workflow_type=workflow_type,
                tenant_id=tenant,
                status=status,  # type: ignore[arg-type]
                started_at=started_at,
                finished_at=now_iso(WORKFLOW_CLOCK),
                error_code=code,
                error_message=message,
                retryable=retry,
            ),
            local=local,
        )

    try:
        result = await body()
    except asyncio.CancelledError:
        # Cooperative cancel: record the terminal fact, then let Temporal close the run as canceled.
        await outcome("canceled", "canceled", "cancellation requested")
        raise
    except workflow.ContinueAsNewError:
        raise  # the chain goes on under a new run; no terminal fact yet
    except Exception as exc:
        if is_cancelled_exception(exc):
            # A cancel that reached us through a cancelled activity or timer: same terminal fact.
            await outcome("canceled", "canceled", "cancellation requested")
            raise
        failure = failure_of(exc)
        await outcome("failed", failure.code, failure.message, failure.retryable)
        raise ApplicationError(failure.message, type=failure.code, non_retryable=True) from exc
    await outcome("succeeded")
    return result
