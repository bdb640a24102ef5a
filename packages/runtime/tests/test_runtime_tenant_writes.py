"""A Discover run for a tenant other than ``local``, the preparations it fans out, a dry-run apply of
one prepared job and a contact research task write every event under that tenant: the discovery run,
jobs and identity claims, the execution membership, enrichment, scores, materials, PDFs, stage rows,
pipeline steps, the apply run (ADR 0080, 0082), the research task and its candidates, and the
workflow lifecycle facts.

The real worker on the real dev server, the real context activities, one ATS source of the sample
board (which also serves the team page the research reads), the offline LLM, Chromium PDFs and the
Chromium dry-run apply.  Saving the profile happens before the run and is not the run's writing; the
source registry is written under the tenant.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from jobctrl.contact.adapters.vault import PersonalDataVault
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.server import Route
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.kernel.store import Database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration.workflows import (
    ApplyWorkflow,
    ApplyWorkflowInput,
    ContactResearchInput,
    ContactResearchWorkflow,
)
from jobctrl.orchestration.workflows.discover import DiscoverResult, DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.ids import (
    apply_workflow_id,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.pipeline import save_profile
from jobctrl.testing.runtime.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.integration]

TENANT = "acme"
# What the source registry, a Discover, its preparations, a dry-run apply and a contact research
# write, each of which must carry the run's tenant.
EXPECTED = {
    "SourceRegistryEntryCreated",
    "DiscoveryRunStarted", "DiscoveryRunCompleted", "JobDiscovered", "JobSourceObserved",
    "CanonicalJobIdentityResolved", "DiscoveryExecutionMemberLinked", "DiscoveryExecutionWorkPlanRecorded",
    "DiscoveryExecutionMembershipClosed", "JobEnriched", "JobScored", "ResumeApproved",
    "CoverLetterGenerated", "PdfRendered", "StageStarted", "StageCompleted", "PipelineStepStarted",
    "PipelineStepCompleted", "WorkflowStarted", "WorkflowCompleted",
    "ApplyRunStarted", "ApplyRunEventRecorded",
    "ContactResearchTaskStarted", "ContactCandidateProposed", "ContactResearchSourceAttempted",
    "ContactResearchTaskNeedsReview",
}  # fmt: skip
TEAM_PAGE = b"""<html><body><h1>Our team</h1>
<p>Grace Hopper - Engineering Manager</p><p>grace@example.org</p></body></html>"""


@pytest.mark.asyncio
async def test_a_non_local_discover_its_preparations_apply_and_contact_research_write_only_under_that_tenant(
    harness: Harness, database: Database, tmp_path: Path
) -> None:
    store = harness.store
    with SampleJobBoard() as board:
        board.server.set_route("/team", Route(200, TEAM_PAGE, "text/html"))
        sources = [s for s in board.sources() if s.source_id == "lever-initech"]
        comp = Composition.build(
            database, store, sources=lambda: sources, artifacts_root=tmp_path, min_score=1
        )
        try:
            save_profile(comp, SAMPLE_PROFILE)
            before = store.head_position()
            register_sources(store, sources, clock=comp.clock, tenant_id=TENANT)
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
                applied = next(t.job_id for t in targets if comp.facts.pdf_ready(t.job_id))
                await w.client.execute_workflow(
                    ApplyWorkflow.run,
                    ApplyWorkflowInput(tenant=TENANT, job_id=applied, dry_run=True),
                    id=apply_workflow_id(TENANT, applied),
                    task_queue=w.task_queue,
                )
                contacts = ContactServices(
                    store=store, vault=PersonalDataVault(database), clock=comp.clock, tenant_id=TENANT
                )
                start_research(contacts, "team-1", employer="Initech", job_id=None)
                research = await w.client.execute_workflow(
                    ContactResearchWorkflow.run,
                    ContactResearchInput(
                        task_id="team-1",
                        tenant=TENANT,
                        employer="Initech",
                        sources=[f"{board.base_url}/team"],
                    ),
                    id=f"contact-research-{TENANT}-team-1",
                    task_queue=w.task_queue,
                )
        finally:
            comp.close()
        posts = board.server.posts

    assert result.observed_jobs == 7 and targets
    assert research.candidates == 1 and posts == []  # the dry run sent nothing
    written = store.read_all(after=before, limit=100_000)
    by_tenant = Counter(e.tenant_id for e in written)
    elsewhere = sorted({(e.tenant_id, e.event_type) for e in written if e.tenant_id != TENANT})
    assert not elsewhere, elsewhere
    assert set(by_tenant) == {TENANT}
    assert {e.event_type for e in written} >= EXPECTED, EXPECTED - {e.event_type for e in written}
    assert any(comp.facts.pdf_ready(t.job_id) for t in targets)
