"""A Discover run for a tenant other than ``local``, and the preparations it fans out, write every
event under that tenant: the discovery run, jobs and identity claims, the execution membership,
enrichment, scores, materials, PDFs, stage rows, pipeline steps and workflow lifecycle facts.

The real worker on the real dev server, the real context activities, one ATS source of the sample
board, the offline LLM and Chromium PDFs.  Setting up (the profile and the source registry) happens
before the run and is not the run's writing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from jobctrl.discovery.commands.register_sources import register_sources
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.kernel.store import Database
from jobctrl.materials.sample import SAMPLE_PROFILE
from jobctrl.orchestration.workflows.discover import DiscoverResult, DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.pipeline import save_profile
from jobctrl.runtime.testing.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.integration]

TENANT = "acme"
# What a Discover and its preparations write, each of which must carry the run's tenant.
EXPECTED = {
    "DiscoveryRunStarted", "DiscoveryRunCompleted", "JobDiscovered", "JobSourceObserved",
    "CanonicalJobIdentityResolved", "DiscoveryExecutionMemberLinked", "DiscoveryExecutionWorkPlanRecorded",
    "DiscoveryExecutionMembershipClosed", "JobEnriched", "JobScored", "ResumeApproved",
    "CoverLetterGenerated", "PdfRendered", "StageStarted", "StageCompleted", "PipelineStepStarted",
    "PipelineStepCompleted", "WorkflowStarted", "WorkflowCompleted",
}  # fmt: skip


@pytest.mark.asyncio
async def test_a_non_local_discover_and_its_preparations_write_only_under_that_tenant(
    harness: Harness, database: Database, tmp_path: Path
) -> None:
    store = harness.store
    with SampleJobBoard() as board:
        sources = [s for s in board.sources() if s.source_id == "lever-initech"]
        comp = Composition.build(
            database, store, sources=lambda: sources, artifacts_root=tmp_path, min_score=1
        )
        try:
            save_profile(comp, SAMPLE_PROFILE)
            register_sources(store, sources, clock=comp.clock)
            before = store.head_position()
            async with harness.worker(comp.activities(), targets=comp.facts) as w:
                handle = await w.client.start_workflow(
                    DiscoverWorkflow.run,
                    DiscoverWorkflowInput(tenant=TENANT, source_ids=["lever-initech"]),
                    id=f"discover-{TENANT}",
                    task_queue=w.task_queue,
                )
                result: DiscoverResult = await handle.result()
                targets = comp.facts.targets(TENANT, result.execution.temporal_run_id, "observed_this_run")
                for t in targets:
                    key = preparation_idempotency_key(
                        TENANT, t.job_id, t.kind, t.target_version, t.source_event_id
                    )
                    await w.client.get_workflow_handle(preparation_workflow_id(key)).result()
        finally:
            comp.close()

    assert result.observed_jobs == 7 and targets
    written = store.read_all(after=before, limit=100_000)
    by_tenant = Counter(e.tenant_id for e in written)
    elsewhere = sorted({(e.tenant_id, e.event_type) for e in written if e.tenant_id != TENANT})
    assert not elsewhere, elsewhere
    assert set(by_tenant) == {TENANT}
    assert {e.event_type for e in written} >= EXPECTED, EXPECTED - {e.event_type for e in written}
    assert any(comp.facts.pdf_ready(t.job_id) for t in targets)
