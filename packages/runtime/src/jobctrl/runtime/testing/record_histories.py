"""Record the workflow histories the replay tests check (run on purpose, never by the test suite).

``python -m jobctrl.runtime.testing.record_histories DIR`` starts an embedded dev server, runs
Discover (one family failing), a preparation that fails at cover, and a single-job apply with fake
context activities, and writes each history as JSON into DIR.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import uuid
from pathlib import Path

from temporalio.client import WorkflowFailureError

from jobctrl.kernel.store import open_database
from jobctrl.orchestration.workflows import (
    ApplyWorkflow,
    ApplyWorkflowInput,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
    JobPreparationInput,
    JobPreparationWorkflow,
)
from jobctrl.runtime.embedded import DevServer
from jobctrl.runtime.testing.fakes import FakeContexts
from jobctrl.runtime.testing.harness import Harness

NAMES = ("discover_partial.json", "preparation_failed_at_cover_v2.json", "apply_single.json")


async def record(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DevServer.start(Path(tmp) / "temporal.db") as server:
            db = open_database(f"sqlite:///{tmp}/jobctrl.db")
            fakes = FakeContexts(families=["greenhouse", "lever"])
            fakes.failing_families["lever"] = ("source_unavailable", "lever answered 503")
            fakes.failing_steps[("job-r", "cover")] = 1
            tag = uuid.uuid4().hex[:8]
            async with Harness(server.address, db).worker(fakes.activities()) as w:
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
                for history, name in zip(histories, NAMES, strict=True):
                    (out / name).write_text(history.to_json())
            db.dispose()


if __name__ == "__main__":
    asyncio.run(record(Path(sys.argv[1])))
