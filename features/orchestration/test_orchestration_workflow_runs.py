"""Steps for features/orchestration/workflow_runs.feature, on both databases."""

from __future__ import annotations

import json

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.events import WorkflowStarted
from jobctrl.orchestration.runs.outcomes import RunOutcome
from jobctrl.orchestration.runs.reconcile import DescribedStatus
from jobctrl.orchestration.runs.service import RunService

pytestmark = pytest.mark.both_databases
scenarios("orchestration/workflow_runs.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@pytest.fixture
def runs(store: EventStore, clock: FixedClock) -> RunService:
    return RunService(store, clock=clock)


@given(parsers.parse('workflow "{wf}" run "{run}" was started'))
@when(parsers.parse('workflow "{wf}" run "{run}" is started again'))
def started(runs: RunService, wf: str, run: str) -> None:
    runs.record_started(wf, "JobPreparationWorkflow", run, {"jobId": "job-1"})


@when(parsers.parse('workflow "{wf}" run "{run}" is started with input {summary}'))
def started_with(runs: RunService, wf: str, run: str, summary: str) -> None:
    runs.record_started(wf, "DiscoverWorkflow", run, json.loads(summary))


@given(parsers.parse('workflow "{wf}" run "{run}" succeeded'))
def succeeded(runs: RunService, wf: str, run: str) -> None:
    assert runs.record_outcome(wf, run, RunOutcome.SUCCEEDED, duration_ms=5)


@when(parsers.parse('workflow "{wf}" run "{run}" reports failure "{code}"'))
def reports_failure(runs: RunService, wf: str, run: str, code: str) -> None:
    runs.record_outcome(wf, run, RunOutcome.FAILED, error_code=code)


@when(parsers.parse('a cancel for workflow "{wf}" run "{run}" is requested'))
def cancel(runs: RunService, wf: str, run: str) -> None:
    assert not runs.request_cancellation(wf, run, requested_by="operator", source="api", reason_code=None)


@given(parsers.parse('the reconciler found workflow "{wf}" {described}'))
@when(parsers.parse('the reconciler finds workflow "{wf}" {described}'))
def reconciler(runs: RunService, wf: str, described: str) -> None:
    runs.reconcile(wf, DescribedStatus(described))


def _types(store: EventStore, wf: str) -> list[str]:
    return [r.event_type for r in store.read_stream(f"workflow-{wf}")]


@then(parsers.parse('workflow "{wf}" has events {names}'))
def has_events(store: EventStore, wf: str, names: str) -> None:
    assert _types(store, wf) == [n.strip() for n in names.split(",")]


@then(parsers.re(r'workflow "(?P<wf>[^"]+)" is (?P<status>[a-z_]+)$'))
def is_status(runs: RunService, wf: str, status: str) -> None:
    assert runs.load(wf).status == status


@then(parsers.parse('workflow "{wf}" is {status} with code "{code}"'))
def status_code(runs: RunService, wf: str, status: str, code: str) -> None:
    run = runs.load(wf)
    assert run.status == status and (run.error_code or "none") == code


@then(parsers.parse('no event of workflow "{wf}" mentions "{text}"'))
def no_mention(store: EventStore, wf: str, text: str) -> None:
    assert all(text not in r.payload.decode() for r in store.read_stream(f"workflow-{wf}"))


@then(parsers.parse('the start of workflow "{wf}" summarizes {summary}'))
def summarizes(store: EventStore, wf: str, summary: str) -> None:
    first = msgspec.json.decode(store.read_stream(f"workflow-{wf}")[0].payload)
    assert first["inputSummary"] == json.loads(summary)


@then(parsers.parse('the last start of workflow "{wf}" is marked recovered from missing history'))
def recovered(store: EventStore, wf: str) -> None:
    starts = [r for r in store.read_stream(f"workflow-{wf}") if r.event_type == "WorkflowStarted"]
    event = store.registry.decode(starts[-1])
    assert isinstance(event, WorkflowStarted) and event.recovered_from_missing_history is True
    assert starts[-1].meta().run_id == "r1"
