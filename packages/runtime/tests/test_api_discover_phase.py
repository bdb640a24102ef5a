"""The Discover phase rule and the cancel rule (pure functions)."""

from __future__ import annotations

import pytest

from jobctrl.runtime.api.discover_phase import discover_phase, is_cancelable
from jobctrl.runtime.api.operations.execution import _MemberGroup


@pytest.mark.parametrize(
    ("status", "error_code", "steps", "phase"),
    [
        ("in_progress", None, [], "discovering"),
        ("in_progress", None, [("source_family", "succeeded")], "discovering"),
        ("in_progress", None, [("preparation_fanout", "running")], "discovering"),
        ("in_progress", None, [("preparation_fanout", "succeeded")], "draining"),
        ("succeeded", None, [("preparation_fanout", "succeeded")], "completed"),
        ("succeeded", None, [("enrichment_pass", "running")], "draining"),
        (
            "succeeded",
            None,
            [("source_family", "failed"), ("preparation_fanout", "succeeded")],
            "completed_with_issues",
        ),
        ("failed", "discovery_source_failed", [], "failed"),
        ("timed_out", None, [], "failed"),
        ("canceled", None, [("enrichment_pass", "running")], "canceled"),
        ("terminated", "reconciled_not_found", [], None),
    ],
)
def test_phase(status: str, error_code: str | None, steps: list[tuple[str, str]], phase: str | None) -> None:
    assert discover_phase(status, error_code, steps) == phase


def test_cancel_needs_an_in_progress_discover_run_that_is_discovering_or_draining() -> None:
    assert is_cancelable("DiscoverWorkflow", "in_progress", "discovering")
    assert is_cancelable("DiscoverWorkflow", "in_progress", "draining")
    assert not is_cancelable("DiscoverWorkflow", "succeeded", "draining")  # closed, still draining
    assert not is_cancelable("DiscoverWorkflow", "in_progress", None)
    assert not is_cancelable("JobPreparationWorkflow", "in_progress", "discovering")


def test_a_succeeded_run_drains_while_members_remain_and_issues_need_a_real_failure() -> None:
    closed = [("preparation_fanout", "succeeded")]
    assert discover_phase("succeeded", None, closed, closed=True, remaining=2) == "draining"
    assert discover_phase("succeeded", None, closed, closed=True, issues=True) == "completed_with_issues"
    assert discover_phase("in_progress", None, [], closed=True) == "draining"  # the closing fact


def test_a_not_eligible_jobs_canceled_score_is_not_an_issue_but_a_canceled_tailor_is() -> None:
    required = ("score", "tailor", "cover")
    not_eligible = _MemberGroup(
        "observed_this_run", "planned", required,
        {"score": "canceled", "tailor": "skipped", "cover": "skipped"}, 6, "no_requirements",
    )  # fmt: skip
    assert not_eligible.terminal and not not_eligible.has_issue
    stopped = _MemberGroup(
        "observed_this_run", "planned", required,
        {"score": "succeeded", "tailor": "canceled", "cover": "pending"}, 1, None,
    )  # fmt: skip
    assert stopped.has_issue
    canceled_score = _MemberGroup(
        "observed_this_run", "planned", required, {"score": "canceled"}, 1, "canceled_by_operator"
    )
    assert canceled_score.has_issue
