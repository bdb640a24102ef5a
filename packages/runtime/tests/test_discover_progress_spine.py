"""The Discover progress spine (families + 2) under random interleavings, retries and replays (ADR 0130).

The workflow counts the finished steps (``DiscoverWorkflow._advance``, the real code) in the order the
families finish; each count is then reported to the DiscoveryRun aggregate (the real ``report_progress``)
by an activity that Temporal may retry, and that a replayed or re-delivered report may repeat later.  The
fold of the recorded events (the real ``discovery_run_projections`` handler) must agree with the aggregate.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from jobctrl.discovery.events import DiscoveryRunCounts, DiscoveryRunProgressRecorded
from jobctrl.orchestration import DiscoveryRun, progress_total
from jobctrl.orchestration.workflows.discover import DiscoverWorkflow
from jobctrl.projections.model import EventInfo
from jobctrl.projections.read_models.discovery_runs import DiscoveryRunRow, on_progress

T = "2026-03-02T09:00:00.000Z"


@dataclass(frozen=True)
class Plan:
    families: int
    finish_order: list[int]  # the order in which the parallel families finish
    deliveries: list[int]  # indexes into the reports, in delivery order (duplicates = retries/replays)
    fail_after: int | None  # the run fails after this many terminal steps (0: enrichment failed)


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    n = draw(st.integers(1, 8))
    order = draw(st.permutations(range(n)))
    reports = n + 2
    # Every report is delivered at least once; some again, anywhere later (a retry or a replay).
    base = list(range(reports))
    extra = draw(st.lists(st.integers(0, reports - 1), max_size=reports * 2))
    deliveries = draw(st.permutations(base + extra))
    fail_after = draw(st.one_of(st.none(), st.integers(0, 1)))
    return Plan(n, list(order), list(deliveries), fail_after)


def _counts_reported(plan: Plan) -> list[int]:
    """The counts the workflow reports, in the order it reaches them (the real ``_advance``)."""
    wf = DiscoverWorkflow()
    wf._total = plan.families + 2
    reported = []
    for _ in plan.finish_order:  # each finished family (succeeded or failed) advances by one
        wf._advance(wf._done + 1)
        reported.append(wf._done)
    steps = 2 if plan.fail_after is None else plan.fail_after
    for _ in range(steps):  # the terminal enrichment pass, then the terminal fan-out
        wf._advance(wf._done + 1)
        reported.append(wf._done)
    return reported


def _fold(events: list[DiscoveryRunProgressRecorded]) -> DiscoveryRunRow | None:
    row: DiscoveryRunRow | None = None
    for i, event in enumerate(events, 1):
        row = on_progress(row, event, EventInfo.of(i, "DiscoveryRunProgressRecorded", "local", T, b"{}"))
    return row


@settings(max_examples=300, deadline=None)
@given(plans())
def test_the_spine_is_monotonic_and_ends_where_the_run_ended(plan: Plan) -> None:
    total = progress_total(plan.families)
    reported = _counts_reported(plan)
    assert reported == sorted(reported) and len(set(reported)) == len(reported)  # one step each
    run = DiscoveryRun("run-1")
    run.start(source_ids=["s"], profile_snapshot_id=None, at=T)
    run.report_progress(completed=0, total=total, at=T)
    seen = [run.progress.completed]
    families_done = plan.families
    # Family reports first (in any order, with repeats); the run completes after its families.
    family_reports = [d for d in plan.deliveries if d < families_done]
    terminal_reports = [d for d in plan.deliveries if families_done <= d < len(reported)]
    for d in family_reports:
        run.report_progress(completed=reported[d], total=total, at=T)
        seen.append(run.progress.completed)
    run.complete(counts=DiscoveryRunCounts(0, 0, 0, 0, 0, 0), error_classes=[], at=T)
    for d in sorted(terminal_reports):  # the terminal steps run one after the other, retried
        run.report_progress(completed=reported[d], total=total, at=T)
        seen.append(run.progress.completed)
    assert seen == sorted(seen), "the spine moved backwards"
    assert run.progress.total == total
    expected_end = total if plan.fail_after is None else plan.families + plan.fail_after
    assert run.progress.completed == expected_end
    # A run that failed in a terminal step stops there: the workflow reports nothing after it.
    recorded = [e for e in run.pending_events if isinstance(e, DiscoveryRunProgressRecorded)]
    row = _fold(recorded)
    assert row is not None and (row.progress_completed, row.progress_total) == (expected_end, total)
    # Re-folding the same events (a rebuild, a replay of the log) changes nothing.
    again = _fold(recorded + recorded)
    assert again is not None and (again.progress_completed, again.progress_total) == (expected_end, total)


def test_a_completed_run_still_takes_its_terminal_steps_but_a_failed_one_does_not() -> None:
    done = DiscoveryRun("run-ok")
    done.start(source_ids=["s"], profile_snapshot_id=None, at=T)
    done.report_progress(completed=4, total=6, at=T)
    done.complete(counts=DiscoveryRunCounts(0, 0, 0, 0, 0, 0), error_classes=[], at=T)
    assert done.report_progress(completed=6, total=6, at=T)  # enrichment + fan-out after completion
    dead = DiscoveryRun("run-dead")
    dead.start(source_ids=["s"], profile_snapshot_id=None, at=T)
    dead.report_progress(completed=4, total=6, at=T)
    dead.interrupt(reason="canceled", retryable=False, at=T)
    assert not dead.report_progress(completed=5, total=6, at=T)
    assert (dead.progress.completed, dead.progress.total) == (4, 6)
