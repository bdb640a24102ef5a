"""Record the workflow histories the replay tests check (run on purpose, never by the test suite).

``python -m jobctrl.testing.runtime.record_histories DIR [NAME ...]`` starts an embedded dev server,
runs Discover (one family failing), a preparation that fails at cover, a single-job apply, a
profile continuation (a saved profile drained through the outbox, awaiting one older continuation)
and a contact research run with fake context activities, and writes each history as JSON into DIR.
With NAMEs only those histories are written, so an older recorded version of another workflow is
never overwritten.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from temporalio.client import WorkflowFailureError, WorkflowHistory

from jobctrl.kernel.store import open_database
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.workflows import (
    ApplyWorkflow,
    ApplyWorkflowInput,
    ContactResearchInput,
    ContactResearchWorkflow,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
    JobPreparationInput,
    JobPreparationWorkflow,
)
from jobctrl.runtime.activities.ports import PreparationTarget
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.runtime.embedded import DevServer
from jobctrl.runtime.outbox import drain_profile_outbox
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness, RunningWorker

NAMES = (  # the lifecycle records and the preparation checkpoint as local activities (ADR 0236)
    "discover_partial_v2.json",
    "preparation_failed_at_cover_v6.json",  # v6: started + gate + checkpoint, one local activity (ADR 0391)
    "apply_single_v2.json",
    "profile_continuation_v4.json",
    "contact_research_v2.json",
)


@dataclass
class _ContinuationTargets:
    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        if cohort != "profile_continuation":
            return []
        return [PreparationTarget(j, "score_job", None, "unused") for j in ("job-p", "job-q")]


async def _continuation(w: RunningWorker) -> WorkflowHistory:
    """Two saves, two drains: the second continuation awaits the first, then prepares two jobs."""
    control = TemporalWorkflowControl.for_client(w.client)
    save_profile(w.store, {"summary": [{"id": "sum-1", "text": "Backend engineer"}]})
    first = await drain_profile_outbox(w.store, control, task_queue=w.task_queue)
    save_profile(w.store, {"summary": [{"id": "sum-1", "text": "Staff engineer"}]})
    second = await drain_profile_outbox(w.store, control, task_queue=w.task_queue)
    for workflow_id in (*first.started, *second.started):
        await w.client.get_workflow_handle(workflow_id).result()
    return await w.client.get_workflow_handle(second.started[0]).fetch_history()


async def record(out: Path, names: tuple[str, ...] = NAMES) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DevServer.start(Path(tmp) / "temporal.db") as server:
            db = open_database(f"sqlite:///{tmp}/jobctrl.db")
            fakes = FakeContexts(families=["greenhouse", "lever"])
            fakes.failing_families["lever"] = ("source_unavailable", "lever answered 503")
            fakes.failing_steps[("job-r", "cover")] = 1
            tag = uuid.uuid4().hex[:8]
            harness = Harness(server.address, db)
            async with harness.worker(fakes.activities(), targets=_ContinuationTargets()) as w:
                discover = await w.client.start_workflow(
                    DiscoverWorkflow.run, DiscoverWorkflowInput(tenant="local"), id="discover-local",
                    task_queue=w.task_queue,
                )  # fmt: skip
                await discover.result()
                prep = await w.client.start_workflow(
                    JobPreparationWorkflow.run,
                    JobPreparationInput(tenant="local", job_id="job-r", idempotency_key=f"k{tag}"),
                    id=f"prep-k{tag}",
                    task_queue=w.task_queue,
                )
                with contextlib.suppress(WorkflowFailureError):  # recorded on purpose: the failure path
                    await prep.result()
                apply = await w.client.start_workflow(
                    ApplyWorkflow.run, ApplyWorkflowInput(job_id="job-r"), id="apply-local-job-r",
                    task_queue=w.task_queue,
                )  # fmt: skip
                await apply.result()
                histories = [await h.fetch_history() for h in (discover, prep, apply)]
                histories.append(await _continuation(w))
                research = await w.client.start_workflow(
                    ContactResearchWorkflow.run,
                    ContactResearchInput(task_id="task-r", tenant="local", employer="Initech"),
                    id="contact-research-local-task-r",
                    task_queue=w.task_queue,
                )
                await research.result()
                histories.append(await research.fetch_history())
                for history, name in zip(histories, NAMES, strict=True):
                    if name in names:
                        (out / name).write_text(history.to_json())
            db.dispose()


if __name__ == "__main__":
    asyncio.run(record(Path(sys.argv[1]), tuple(sys.argv[2:]) or NAMES))
