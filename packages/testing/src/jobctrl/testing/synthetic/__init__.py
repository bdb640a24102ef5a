"""A generated, realistic job log for determinism and crash tests and for the benchmark.

Jobs move through their stages with failures, retries, blocks, resets and exhaustion; Discover runs
emit pipeline steps with retried attempts, late lower attempts and duplicate terminals; workflows
are re-run under the same id, get late terminal events from older runs and provisional
``reconciled_not_found`` verdicts followed by a marked recovery start.  Independent stories are
interleaved at random, as concurrent activities would.  Optionally a few rows are corrupt (invalid
payload, unknown type) or carry payload keys the schema does not know.

Rows are written straight into ``job_events`` in large batches (the store's append path validates
each event and is not what a generator of a million rows should measure).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from itertools import islice
from typing import Any

import sqlalchemy as sa

from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration.events import WorkflowCancellationRequested, WorkflowFailed, WorkflowStarted
from jobctrl.testing.synthetic._common import START, Emitted, _Clock, _enc, _interleave
from jobctrl.testing.synthetic.executions import _execution_story, _tenant_story
from jobctrl.testing.synthetic.jobs import _job_story
from jobctrl.testing.synthetic.outreach import _outreach_story
from jobctrl.testing.synthetic.workflows import _completed, _steps, _terminated


def _workflow_story(
    rng: random.Random, clock: _Clock, wf: str, runs: int, jobs: list[int], items: int
) -> Iterator[Emitted]:
    stream = f"workflow-{wf}"
    for r in range(runs):
        run = f"{wf}-run-{r}"
        yield (
            WorkflowStarted(
                workflow_id=wf,
                workflow_type="DiscoverWorkflow",
                status="in_progress",
                input_summary={"limit": 0},
                started_at=clock.tick(rng),
                temporal_run_id=run,
            ),
            stream,
            wf,
            run,
        )
        ex = ExecutionRefPayload(tenant_id="local", workflow_id=wf, temporal_run_id=run)
        stories = [_steps(rng, clock, ex, "source_family", f"family-{i}") for i in range(items)]
        stories += [_job_story(rng, clock, n, wf, run) for n in jobs[r::runs]]
        stories.append(_execution_story(rng, clock, wf, run, jobs[r::runs], items))
        yield from _interleave(rng, stories)
        ending = rng.random()
        if ending < 0.1:
            yield (
                WorkflowCancellationRequested(
                    workflow_id=wf,
                    workflow_type="DiscoverWorkflow",
                    requested_by="user",
                    source="api",
                    evidence_kind="request_intent",
                    reason=None,
                    requested_at=clock.tick(rng),
                    temporal_run_id=run,
                    message="stop requested",
                ),
                stream,
                wf,
                run,
            )
        if ending < 0.2:
            yield _terminated(clock, rng, wf, run, "reconciled_not_found"), stream, wf, run
            yield (
                WorkflowStarted(
                    workflow_id=wf,
                    workflow_type="DiscoverWorkflow",
                    status="in_progress",
                    input_summary={},
                    started_at=clock.tick(rng),
                    temporal_run_id=run,
                    recovered_from_missing_history=True,
                ),
                stream,
                wf,
                run,
            )
        if ending < 0.35:
            yield (
                WorkflowFailed(
                    workflow_id=wf,
                    workflow_type="DiscoverWorkflow",
                    status="failed",
                    finished_at=clock.tick(rng),
                    duration_ms=1000,
                    temporal_run_id=run,
                    error_code="discovery_source_failed",
                    error_message="every family failed",
                    retryable=False,
                ),
                stream,
                wf,
                run,
            )
        else:
            yield _completed(clock, rng, wf, run), stream, wf, run
        yield _completed(clock, rng, wf, run), stream, wf, run  # duplicate terminal: ignored
        if r > 0 and rng.random() < 0.5:  # a late terminal of an older run: ignored
            yield _terminated(clock, rng, wf, f"{wf}-run-{r - 1}", "reconciled_terminated"), stream, wf, run


def generate(
    jobs: int, *, seed: int = 7, workflows: int = 4, runs: int = 2, families: int = 4, outreach: int = 0
) -> Iterator[Emitted]:
    """Stories for ``jobs`` jobs spread over ``workflows`` workflow ids, each run ``runs`` times, plus
    ``outreach`` outreach threads (none by default, so older seeds give the same log)."""
    rng = random.Random(seed)
    clock = _Clock()
    per = [list(range(w, jobs, workflows)) for w in range(workflows)]
    stories = [_workflow_story(rng, clock, f"discover-{w}", runs, per[w], families) for w in range(workflows)]
    stories.append(_tenant_story(rng, clock))
    if outreach:
        stories.append(_outreach_story(rng, clock, outreach))
    yield from _interleave(rng, stories)


class LogWriter:
    """Writes generated events as ``job_events`` rows, in as many calls as wanted: stream versions and
    event ids continue where the previous call stopped."""

    def __init__(
        self,
        emitted: Iterator[Emitted],
        *,
        corrupt_every: int = 0,
        extra_key_every: int = 0,
        namespace: str = "gen",
    ) -> None:
        self._emitted = emitted
        self._corrupt_every = corrupt_every
        self._extra_key_every = extra_key_every
        self._namespace = namespace
        self._versions: dict[str, int] = {}
        self._n = 0

    def write(self, db: Database, limit: int | None = None, chunk: int = 5000) -> int:
        rows: list[dict[str, Any]] = []
        written = 0
        for event, story, wf, run in islice(self._emitted, limit):
            rows.append(self._row(event, story, wf, run))
            if len(rows) >= chunk:
                written += _flush(db, rows)
        return written + _flush(db, rows)

    def _row(self, event: DomainEvent, story: str, wf: str | None, run: str | None) -> dict[str, Any]:
        self._n += 1
        n = self._n
        stream = f"{self._namespace}:{story}"
        version = self._versions.get(stream, 0) + 1
        self._versions[stream] = version
        payload = _enc.encode(event).decode()
        event_type = event.event_type
        if self._extra_key_every and n % self._extra_key_every == 0:
            payload = payload[:-1] + ',"notInSchema":"dropped"}'
        if self._corrupt_every and n % self._corrupt_every == 0:
            payload, event_type = ('{"jobId": 5}', event_type) if n % 2 else (payload, "NoSuchEvent")
        event_id = f"{self._namespace}-{n}"
        meta: dict[str, Any] = {"eventId": event_id}
        if wf is not None:
            meta |= {"workflowId": wf, "runId": run, "attempt": 1}
        return {
            "event_id": event_id,
            "stream_id": stream,
            "stream_version": version,
            "event_type": event_type,
            "schema_version": event.schema_version,
            "tenant_id": "local",
            "job_id": getattr(event, "job_id", None),
            "occurred_at": isoformat(START + timedelta(seconds=n)),
            "payload": payload,
            "metadata": _enc.encode(meta).decode(),
        }


def write_log(
    db: Database,
    emitted: Iterator[Emitted],
    *,
    limit: int | None = None,
    corrupt_every: int = 0,
    extra_key_every: int = 0,
    namespace: str = "gen",
) -> int:
    """Write (up to ``limit``) generated events in one go; returns how many rows were written."""
    writer = LogWriter(
        emitted, corrupt_every=corrupt_every, extra_key_every=extra_key_every, namespace=namespace
    )
    return writer.write(db, limit)


def _flush(db: Database, rows: list[dict[str, Any]]) -> int:
    if not rows:
        return 0
    with db.write() as conn:
        conn.execute(sa.insert(job_events), rows)
    n = len(rows)
    rows.clear()
    return n
