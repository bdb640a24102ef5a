"""The Discover phase rule and the cancel rule (pure functions)."""

from __future__ import annotations

import pytest

from jobctrl.runtime.api.discover_phase import discover_phase, is_cancelable


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
