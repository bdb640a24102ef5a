"""The real pipeline on the real dev server: real worker, real context activities, one ATS source of the
sample board (7 postings), the offline LLM, Chromium PDFs and a dry-run apply that must never submit."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobctrl.apply.events import ApplicationSubmitted, ApplyRunStarted, ApplySubmitIntended
from jobctrl.discovery.events import (
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryRunCompleted,
    DiscoveryRunFailed,
    DiscoveryRunStarted,
)
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.domain.stages.states import Pending, Running
from jobctrl.orchestration.events import StageCompleted, StageFailed, StageSkipped, StageStarted
from jobctrl.runtime.composition.root import Composition
from jobctrl.testing.runtime.pipeline import composed_worker


@pytest.mark.asyncio
async def test_pipeline_discovers_prepares_pdfs_and_dry_runs_without_submitting(
    temporal_address: str, database: Database, tmp_path: Path
) -> None:
    store = EventStore(database, registry())
    with SampleJobBoard() as board:
        sources = [s for s in board.sources() if s.source_id == "lever-initech"]
        comp = Composition.build(
            database, store, sources=lambda: sources, artifacts_root=tmp_path, min_score=1
        )
        async with composed_worker(comp, temporal_address) as worker:
            report = await worker.pipeline(sources, top_n=2)
            again = await worker.pipeline(sources, top_n=2)
        posts = board.server.posts

    assert report.discover.observed_jobs == 7
    assert not report.failed, report.failed
    assert report.prepared, "no job was prepared"
    for job_id in report.prepared:
        assert comp.facts.pdf_ready(job_id)
        pdfs = comp.facts.pdf_ids(job_id)
        assert pdfs is not None
    assert len(list(tmp_path.rglob("*.pdf"))) == 2 * len(report.prepared)
    assert set(report.dry_runs.values()) == {"dry_run_completed"}, report.dry_runs
    assert report.submitted == 0 and posts == []  # the dry run filled forms and sent nothing
    # Every model call was priced into the one ledger under the runs' tenant (ADR 0110).
    assert comp.ledger.status("local").calls > 0
    events = store.read_all(limit=100_000)
    assert not [
        e for e in events if e.event_type in (ApplySubmitIntended.event_type, ApplicationSubmitted.event_type)
    ]
    assert sum(e.event_type == ApplyRunStarted.event_type for e in events) == len(report.dry_runs)
    assert any(e.event_type == StageStarted.event_type for e in events)
    assert any(e.event_type == StageCompleted.event_type for e in events)
    # The standing loop would claim the prepared jobs that have no apply run yet, and only those.
    assert set(comp.facts.apply_candidates("local", 100)) == set(report.prepared) - set(report.dry_runs)
    # The backlog sweep of a later Discover would pick up exactly the jobs whose Score never succeeded.
    backlog = {t.job_id for t in comp.facts.targets("local", "any-run", "existing_backlog")}
    assert backlog and backlog == {j for j in report.not_eligible if not comp.tracker.succeeded(j, "score")}
    # The second pass re-attached: the same jobs, nothing prepared or dry-run again.
    assert sorted(again.prepared) == sorted(report.prepared)
    later = store.read_all(limit=100_000)
    assert sum(e.event_type == ApplyRunStarted.event_type for e in later) == len(report.dry_runs)

    _assert_durable_outcomes(store, comp, report.not_eligible)


def _assert_durable_outcomes(store: EventStore, comp: Composition, not_eligible: list[str]) -> None:
    """The facts a finished Discover leaves (ADR 0070/0071): the run ended, every member has a plan,
    the membership closed, and no not-eligible job keeps a Tailor/Cover row waiting for ever."""
    decoded = [store.registry.decode(e) for e in store.read_all(limit=100_000)]
    assert not_eligible, "the sample board always has jobs that are not eligible"
    for job_id in not_eligible:
        stages = comp.tracker.load(job_id)
        for stage in ("tailor", "cover"):
            assert not isinstance(stages.state(stage), Pending | Running), (
                job_id,
                stage,
                stages.state(stage),
            )
    skipped = [e for e in decoded if isinstance(e, StageSkipped)]
    assert {e.job_id for e in skipped if e.stage == "tailor"} >= set(not_eligible) - {
        j for j in not_eligible if comp.tracker.succeeded(j, "tailor")
    }
    assert all(e.reason in {"no_requirements", "below_min_fit_score", "requirement_blocked"} for e in skipped)
    assert not [e for e in decoded if isinstance(e, StageFailed) and e.error_code == "score_no_requirements"]

    started = {e.run_id for e in decoded if isinstance(e, DiscoveryRunStarted)}
    completed = [e.run_id for e in decoded if isinstance(e, DiscoveryRunCompleted)]
    assert len(started) == 2 and sorted(completed) == sorted(started)  # one terminal fact per run
    assert not [e for e in decoded if isinstance(e, DiscoveryRunFailed)]
    assert all(e.counts.total >= 7 for e in decoded if isinstance(e, DiscoveryRunCompleted))

    closed = [e for e in decoded if isinstance(e, DiscoveryExecutionMembershipClosed)]
    assert sorted(e.execution.temporal_run_id for e in closed) == sorted(started)
    members = {
        (e.execution.temporal_run_id, e.job_id)
        for e in decoded
        if isinstance(e, DiscoveryExecutionMemberLinked)
    }
    plans = [e for e in decoded if isinstance(e, DiscoveryExecutionWorkPlanRecorded)]
    planned = {(e.execution.temporal_run_id, e.job_id) for e in plans}
    assert members and members == planned, members ^ planned
    assert len(plans) == len(planned)  # one plan per member: a retry or a re-attach adds none
    for plan in plans:
        if plan.state == "planned":
            assert plan.child_workflow_id and plan.child_workflow_id.startswith("prep-")
            assert plan.required_steps
        else:
            assert plan.state == "not_eligible" and plan.reason_code
    for run_id in started:
        count = next(e.member_count for e in closed if e.execution.temporal_run_id == run_id)
        assert count == sum(1 for r, _ in members if r == run_id)
