"""The real pipeline on the real dev server: real worker, real context activities, one ATS source of the
sample board (7 postings), the offline LLM, Chromium PDFs and a dry-run apply that must never submit."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from jobctrl.apply.events import ApplicationSubmitted, ApplyRunStarted, ApplySubmitIntended
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.materials.sample import SAMPLE_PROFILE
from jobctrl.orchestration.events import StageCompleted, StageStarted
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.embedded import local_runtime
from jobctrl.runtime.pipeline import run_pipeline
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings


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
        try:
            async with local_runtime(
                db=database, store=store, settings=FixedSettings(RuntimeSettings(worker_activity_slots=4)),
                spend=comp.spend, overrides=comp.activities(), address=temporal_address,
                task_queue=f"test-{uuid.uuid4().hex[:10]}", targets=comp.facts,
            ) as rt:  # fmt: skip
                report = await run_pipeline(
                    rt.client, comp, task_queue=rt.worker.task_queue, profile=SAMPLE_PROFILE,
                    sources=sources, top_n=2,
                )  # fmt: skip
                again = await run_pipeline(
                    rt.client, comp, task_queue=rt.worker.task_queue, profile=SAMPLE_PROFILE,
                    sources=sources, top_n=2,
                )  # fmt: skip
        finally:
            comp.close()
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
