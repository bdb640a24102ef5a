"""The whole pipeline on one worker, as a library call: what ``jobctrl demo`` and its tests run.

``run_pipeline`` saves the candidate profile (versioned by orchestration's ``save_profile``),
registers the sources, runs ``DiscoverWorkflow`` (whose fan-out starts one ``JobPreparationWorkflow``
per eligible job), waits for every preparation, records an ``approve_dry_run`` review decision for the
top matches with PDFs and runs a dry-run ``ApplyWorkflow`` for each.  Every id is deterministic, so a
second call over the same facts re-attaches: preparations already done are not redone, a job whose
dry run already completed is not run again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from temporalio.client import Client, WorkflowFailureError
from temporalio.common import WorkflowIDConflictPolicy

from jobctrl.apply import JobApplication, ReviewDecisionCommand, RunStatus, record_review_decision
from jobctrl.discovery import SourceConfig, register_sources
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.orchestration import (
    ApplyWorkflow,
    ApplyWorkflowInput,
    DiscoverResult,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
    apply_workflow_id,
    discover_workflow_id,
    load_profile,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.orchestration import save_profile as save_candidate_profile
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.runtime.composition.root import Composition

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class PipelineReport:
    discover: DiscoverResult
    prepared: list[str] = field(default_factory=list)
    not_eligible: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    dry_runs: dict[str, str] = field(default_factory=dict)  # job id → apply run status
    submitted: int = 0


def save_profile(comp: Composition, content: Mapping[str, Any]) -> int:
    save_candidate_profile(comp.store, to_document(dict(content)), clock=comp.clock)
    return load_profile(comp.store, clock=comp.clock).profile_version


async def run_pipeline(
    client: Client,
    comp: Composition,
    *,
    task_queue: str,
    profile: Mapping[str, Any] | None,
    sources: Sequence[SourceConfig],
    tenant: str = "local",
    top_n: int = 3,
    progress: Progress | None = None,
) -> PipelineReport:
    tick = progress or (lambda phase, done, total: None)
    if profile is None:
        # ``jobctrl run``: the saved profile and the sources the user added are used as they are.
        version = await asyncio.to_thread(lambda: load_profile(comp.store, clock=comp.clock).profile_version)
    else:
        version = await asyncio.to_thread(save_profile, comp, profile)
        await asyncio.to_thread(register_sources, comp.store, sources, clock=comp.clock, tenant_id=tenant)

    tick("discover", 0, 1)
    handle = await client.start_workflow(
        DiscoverWorkflow.run,
        DiscoverWorkflowInput(tenant=tenant, source_ids=[s.source_id for s in sources]),
        id=discover_workflow_id(tenant),
        task_queue=task_queue,
        id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
    )
    discover: DiscoverResult = await handle.result()
    tick("discover", 1, 1)
    report = PipelineReport(discover)

    targets = await asyncio.to_thread(
        comp.facts.targets, tenant, discover.execution.temporal_run_id, "observed_this_run"
    )
    total = len(targets)
    done = 0
    tick("prepare", 0, total)

    async def wait(job_id: str, workflow_id: str) -> None:
        nonlocal done
        try:
            result = await client.get_workflow_handle(workflow_id).result()
            if result.get("stopReason") or result.get("stop_reason"):
                report.not_eligible.append(job_id)
            else:
                report.prepared.append(job_id)
        except WorkflowFailureError as exc:
            report.failed[job_id] = str(exc.cause)[:200]
        done += 1
        tick("prepare", done, total)

    await asyncio.gather(
        *(
            wait(t.job_id, preparation_workflow_id(
                preparation_idempotency_key(tenant, t.job_id, t.kind, t.target_version, t.source_event_id)
            ))
            for t in targets
        )
    )  # fmt: skip

    ready = [j for j in report.prepared if comp.facts.pdf_ready(j)]
    ranked = sorted(ready, key=lambda j: (-(comp.facts._fit(j) or 0.0), j))[:top_n]
    tick("apply", 0, len(ranked))
    for n, job_id in enumerate(ranked, start=1):
        status = await _dry_run(client, comp, task_queue, tenant, job_id, version)
        report.dry_runs[job_id] = status
        tick("apply", n, len(ranked))
    return report


def _completed_dry_run(comp: Composition, job_id: str) -> bool:
    app = AggregateRepository.for_class(comp.store, JobApplication, clock=comp.clock).load(job_id)
    return app is not None and bool(app.runs_with(RunStatus.DRY_RUN_COMPLETED))


async def _dry_run(
    client: Client, comp: Composition, task_queue: str, tenant: str, job_id: str, version: int
) -> str:
    if await asyncio.to_thread(_completed_dry_run, comp, job_id):
        return RunStatus.DRY_RUN_COMPLETED.value  # done on an earlier run: reused
    inputs = await asyncio.to_thread(comp.facts.apply_inputs, job_id)
    if inputs is None or inputs.facts.application_url is None:
        return "no_apply_target"
    facts = inputs.facts
    await asyncio.to_thread(
        record_review_decision,
        comp.store,
        ReviewDecisionCommand(
            job_id=job_id,
            decision="approve_dry_run",
            materials_generation=facts.materials_generation,
            profile_version=version,
            application_url=facts.application_url,
        ),
        facts,
        clock=comp.clock,
        tenant_id=tenant,
    )
    try:
        await client.execute_workflow(
            ApplyWorkflow.run,
            ApplyWorkflowInput(tenant=tenant, job_id=job_id, dry_run=True),
            id=apply_workflow_id(tenant, job_id),
            task_queue=task_queue,
        )
    except WorkflowFailureError as exc:
        return f"failed: {str(exc.cause)[:120]}"
    app = await asyncio.to_thread(
        AggregateRepository.for_class(comp.store, JobApplication, clock=comp.clock).load, job_id
    )
    runs = [] if app is None else list(app.state.runs.values())
    return runs[-1].status.value if runs else "no_run"
