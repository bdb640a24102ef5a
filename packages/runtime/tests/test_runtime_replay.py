"""Replay recorded workflow histories against the current workflow code.

A workflow change that breaks determinism for runs already in flight fails here.  Histories are
recorded from real dev-server runs with fakes under the real activity names; regenerate them only
on purpose (``python -m jobctrl.testing.runtime.record_histories packages/runtime/tests/histories``),
and guard changes for in-flight runs with ``workflow.patched``.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from temporalio.client import WorkflowHistory
from temporalio.converter import DataConverter
from temporalio.worker import Replayer

from jobctrl.orchestration.workflows import WORKFLOWS
from jobctrl.orchestration.workflows.continuation import CLOSED_ACTIVITY, CLOSED_PATCH
from jobctrl.orchestration.workflows.lifecycle import LOCAL_LIFECYCLE_PATCH, SPEND_PREFLIGHT_PATCH
from jobctrl.orchestration.workflows.preparation import LOCAL_GATE_PATCH, OPEN_ONCE_PATCH
from jobctrl.runtime.workflow_runner import worker_runner

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
HISTORIES = Path(__file__).parent / "histories"
RECORDED = (  # written by jobctrl.testing.runtime.record_histories; v1 predates the owner recovery
    "discover_partial.json",
    "preparation_failed_at_cover.json",
    "preparation_failed_at_cover_v2.json",
    "apply_single.json",
    "profile_continuation.json",  # awaits an older continuation, prepares two jobs
    "profile_continuation_v2.json",  # ... then records its terminal fact (ADR 0077, patched)
    "preparation_failed_at_cover_v3.json",  # v3: the spend preflight first (ADR 0110, patched)
    "profile_continuation_v3.json",
    "contact_research.json",
    # v4 / v2: the lifecycle records and the preparation checkpoint as local activities (ADR 0236)
    "discover_partial_v2.json",
    "preparation_failed_at_cover_v4.json",
    "apply_single_v2.json",
    "profile_continuation_v4.json",
    "contact_research_v2.json",
    # v5: the spend gate as a local activity next to the checkpoint read (ADR 0383, patched)
    "preparation_failed_at_cover_v5.json",
    # v6: the started record, the gate and the checkpoint as one local activity (ADR 0391, patched)
    "preparation_failed_at_cover_v6.json",
)


def test_every_workflow_type_has_a_recorded_history() -> None:
    first_events = [json.loads((HISTORIES / name).read_text())["events"][0] for name in RECORDED]
    recorded = {e["workflowExecutionStartedEventAttributes"]["workflowType"]["name"] for e in first_events}
    assert recorded == {w.__temporal_workflow_definition.name for w in WORKFLOWS}  # type: ignore[attr-defined]


@pytest.mark.asyncio
@pytest.mark.parametrize("name", RECORDED)
async def test_recorded_history_replays_on_current_code(name: str) -> None:
    path = HISTORIES / name
    history = WorkflowHistory.from_json(f"replay-{name}", path.read_text())
    replayer = Replayer(workflows=list(WORKFLOWS), workflow_runner=worker_runner(DataConverter.default))
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is None, result.replay_failure


@pytest.mark.asyncio
async def test_a_changed_workflow_is_caught_by_replay() -> None:
    """The replay check is not vacuous: a history from Discover does not replay as Apply."""
    text = (HISTORIES / "discover_partial.json").read_text().replace("DiscoverWorkflow", "ApplyWorkflow")
    history = WorkflowHistory.from_json("replay-mismatch", text)
    replayer = Replayer(workflows=list(WORKFLOWS), workflow_runner=worker_runner(DataConverter.default))
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is not None


def _local_activities(name: str) -> list[str]:
    """The local activities a history ran, in marker order."""
    events = json.loads((HISTORIES / name).read_text())["events"]
    return [
        json.loads(
            base64.b64decode(e["markerRecordedEventAttributes"]["details"]["data"]["payloads"][0]["data"])
        )["activity_type"]
        for e in events
        if e["eventType"] == "EVENT_TYPE_MARKER_RECORDED"
        and "data" in e["markerRecordedEventAttributes"]["details"]
    ]


def _patches_and_activities(name: str) -> tuple[set[str], set[str]]:
    events = json.loads((HISTORIES / name).read_text())["events"]
    patches = {
        json.loads(base64.b64decode(payload["data"]))["id"]
        for e in events
        if e["eventType"] == "EVENT_TYPE_MARKER_RECORDED"
        and "patch-data" in e["markerRecordedEventAttributes"]["details"]  # not a local activity's
        for payload in e["markerRecordedEventAttributes"]["details"]["patch-data"]["payloads"]
    }
    activities = {
        e["activityTaskScheduledEventAttributes"]["activityType"]["name"]
        for e in events
        if e["eventType"] == "EVENT_TYPE_ACTIVITY_TASK_SCHEDULED"
    }
    return patches, activities


def test_the_continuation_histories_straddle_the_closed_fact_patch() -> None:
    """v1 ended before the terminal-fact step existed (it replays because that step is patched);
    v2 took it, so both branches of ``workflow.patched`` are replayed above."""
    old_patches, old_activities = _patches_and_activities("profile_continuation.json")
    new_patches, new_activities = _patches_and_activities("profile_continuation_v2.json")
    assert CLOSED_PATCH not in old_patches and CLOSED_ACTIVITY not in old_activities
    assert CLOSED_PATCH in new_patches and CLOSED_ACTIVITY in new_activities


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("preparation_failed_at_cover_v2.json", "preparation_failed_at_cover_v3.json"),
        ("profile_continuation_v2.json", "profile_continuation_v3.json"),
    ],
)
def test_the_preparation_and_continuation_histories_straddle_the_spend_preflight_patch(
    before: str, after: str
) -> None:
    """v2 ran no preflight (it replays because the preflight is patched); v3 ran it."""
    old_patches, old_activities = _patches_and_activities(before)
    new_patches, new_activities = _patches_and_activities(after)
    assert SPEND_PREFLIGHT_PATCH not in old_patches and "check_spend_budget" not in old_activities
    assert SPEND_PREFLIGHT_PATCH in new_patches and "check_spend_budget" in new_activities


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("discover_partial.json", "discover_partial_v2.json"),
        ("preparation_failed_at_cover_v3.json", "preparation_failed_at_cover_v4.json"),
        ("apply_single.json", "apply_single_v2.json"),
        ("profile_continuation_v3.json", "profile_continuation_v4.json"),
        ("contact_research.json", "contact_research_v2.json"),
    ],
)
def test_every_workflow_type_straddles_the_local_lifecycle_patch(before: str, after: str) -> None:
    """The older history queued its lifecycle records as activities; the newer one ran them as local
    activities under the patch, so both branches of ``workflow.patched`` replay above."""
    old_patches, old_activities = _patches_and_activities(before)
    new_patches, new_activities = _patches_and_activities(after)
    assert LOCAL_LIFECYCLE_PATCH not in old_patches and "record_workflow_started" in old_activities
    assert LOCAL_LIFECYCLE_PATCH in new_patches
    assert not {"record_workflow_started", "record_workflow_outcome"} & new_activities
    if "preparation" in after:
        assert "load_preparation_checkpoint" in old_activities
        assert "load_preparation_checkpoint" not in new_activities


def test_the_preparation_histories_straddle_the_local_gate_patch() -> None:
    """v4 queued the spend gate and took a second workflow task for the checkpoint; v5 ran both as
    local activities of the first task, so both branches of ``workflow.patched`` replay above."""
    old_patches, old_activities = _patches_and_activities("preparation_failed_at_cover_v4.json")
    new_patches, new_activities = _patches_and_activities("preparation_failed_at_cover_v5.json")
    assert LOCAL_GATE_PATCH not in old_patches and "check_spend_budget" in old_activities
    assert "check_spend_budget" not in _local_activities("preparation_failed_at_cover_v4.json")
    assert LOCAL_GATE_PATCH in new_patches and "check_spend_budget" not in new_activities
    assert _local_activities("preparation_failed_at_cover_v5.json")[:3] == [
        "record_workflow_started",
        "check_spend_budget",
        "load_preparation_checkpoint",
    ]


def test_the_preparation_histories_straddle_the_open_once_patch() -> None:
    """v5 opened with three local activities (started record, then gate and checkpoint); v6 with one
    that runs all three, and its outcome record asks for no lifecycle patch (its own patch is newer),
    so both branches of ``workflow.patched`` replay above."""
    old_patches, _ = _patches_and_activities("preparation_failed_at_cover_v5.json")
    new_patches, new_activities = _patches_and_activities("preparation_failed_at_cover_v6.json")
    assert OPEN_ONCE_PATCH not in old_patches
    assert _local_activities("preparation_failed_at_cover_v5.json")[:3] == [
        "record_workflow_started",
        "check_spend_budget",
        "load_preparation_checkpoint",
    ]
    assert OPEN_ONCE_PATCH in new_patches and LOCAL_LIFECYCLE_PATCH not in new_patches
    assert _local_activities("preparation_failed_at_cover_v6.json") == [
        "open_preparation",
        "record_workflow_outcome",
    ]
    assert (
        not {"record_workflow_started", "check_spend_budget", "load_preparation_checkpoint"} & new_activities
    )
