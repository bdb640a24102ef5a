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
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.apply.events import ApplicationSubmitted, ApplyRunStarted
from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionRefPayload,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryRunCompleted,
    DiscoveryRunCounts,
    DiscoveryRunFailed,
    DiscoveryRunProgressRecorded,
    DiscoveryRunStarted,
    JobDiscovered,
    JobSourceObserved,
    SourceRegistryEntryCreated,
    SourceStateChanged,
)
from jobctrl.enrichment.events import JobEnriched
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.schema import job_events
from jobctrl.materials.events import CoverLetterGenerated, ResumeApproved
from jobctrl.orchestration.events import (
    ExecutionRef,
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    ProfileContinuationCoalesced,
    ProfileContinuationDispatchIntended,
    ProfileContinuationQueued,
    ProfileRevisionSaved,
    Stage,
    StageBlocked,
    StageCompleted,
    StageEnqueued,
    StageExhausted,
    StageFailed,
    StageMarkedStale,
    StageOwnerRef,
    StageReset,
    StageStarted,
    StageUnblocked,
    StepDetail,
    WorkflowCancellationRequested,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowTerminated,
)
from jobctrl.scoring.events import JobScored, ScoringPolicyUpdated

START = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
Emitted = tuple[DomainEvent, str, str | None, str | None]  # event, stream, workflow id, run id
_enc = msgspec.json.Encoder()
_STAGES: tuple[tuple[Stage, int], ...] = (
    ("enrich", 5),
    ("score", 3),
    ("tailor", 5),
    ("cover", 5),
    ("apply", 3),
)


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def tick(self, rng: random.Random) -> str:
        self.now += timedelta(milliseconds=rng.randint(1, 900))
        return isoformat(self.now)


def _job_story(rng: random.Random, clock: _Clock, n: int, wf: str, run: str) -> Iterator[Emitted]:
    job = f"job-{n:07d}"
    stream = f"job-{job}"
    yield (
        JobDiscovered(
            job_id=job,
            posting_url=f"https://boards.example/{n}",
            source="greenhouse:acme",
            employer=f"Employer {n % 97}",
            metadata={"title": "Engineer"},
            discovered_at=clock.tick(rng),
        ),
        stream,
        wf,
        run,
    )
    for stage, limit in _STAGES:
        if stage in ("cover", "apply") and rng.random() < 0.15:
            yield (
                StageBlocked(
                    job_id=job,
                    stage=stage,
                    blocked_by=["tailor"],
                    error_code="UPSTREAM_TAILOR_FAILED",
                    error_message="Tailor failed.",
                ),
                stream,
                wf,
                run,
            )
            if rng.random() < 0.5:  # Blocked -> Pending only through an unblock (transition 12)
                yield (
                    StageUnblocked(job_id=job, stage=stage, attempt_count=0, unblocked_at=clock.tick(rng)),
                    stream,
                    wf,
                    run,
                )
            else:
                return
        failures = rng.choice((0, 0, 0, 1, 1, 2, limit))
        for attempt in range(1, failures + 1):
            yield from _start(rng, clock, job, stage, attempt, (stream, wf, run))
            yield (
                StageFailed(
                    job_id=job,
                    stage=stage,
                    error_code="transient_network",
                    error_message="upstream timed out",
                    retryable=True,
                    attempt_number=attempt,
                ),
                stream,
                wf,
                run,
            )
            if attempt < limit:  # Failed -> Pending keeps the count (transition 10)
                yield (
                    StageReset(job_id=job, stage=stage, reset_attempts=False, reset_at=clock.tick(rng)),
                    stream,
                    wf,
                    run,
                )
        if failures >= limit:
            yield (
                StageExhausted(job_id=job, stage=stage, attempt_count=limit, max_attempts=limit),
                stream,
                wf,
                run,
            )
            return
        yield from _start(rng, clock, job, stage, failures + 1, (stream, wf, run))
        if stage == "enrich":
            yield (
                JobEnriched(
                    job_id=job,
                    full_description="A role building durable pipelines. " * 4,
                    application_url=f"https://boards.example/{n}/apply",
                    extraction_tier="json_ld",
                    enriched_at=clock.tick(rng),
                ),
                stream,
                wf,
                run,
            )
        elif stage == "score":
            yield (
                JobScored(
                    job_id=job,
                    fit_score=float(rng.randint(1, 10)),
                    breakdown={"requirements": 4},
                    keywords=["python", "sql"],
                    version=1,
                    scored_at=clock.tick(rng),
                ),
                stream,
                wf,
                run,
            )
        elif stage == "tailor":
            yield (
                ResumeApproved(job_id=job, artifact_id=f"art-{n}", generation=1, approved_at=clock.tick(rng)),
                stream,
                wf,
                run,
            )
        elif stage == "cover":
            yield (
                CoverLetterGenerated(job_id=job, artifact_id=f"cl-{n}", generated_at=clock.tick(rng)),
                stream,
                wf,
                run,
            )
        else:
            yield (
                ApplyRunStarted(
                    job_id=job,
                    run_id=f"apply-{n}",
                    worker_id="w1",
                    model="local",
                    dry_run=True,
                    started_at=clock.tick(rng),
                ),
                stream,
                wf,
                run,
            )
            yield (
                ApplicationSubmitted(
                    job_id=job, run_id=f"apply-{n}", applied_at=clock.tick(rng), verification_confidence=0.9
                ),
                stream,
                wf,
                run,
            )
        yield (
            StageCompleted(
                job_id=job, stage=stage, finished_at=clock.tick(rng), duration_ms=rng.randint(5, 9000)
            ),
            stream,
            wf,
            run,
        )
        if stage == "score" and rng.random() < 0.05:  # a profile change: Succeeded -> Stale -> Pending
            at = clock.tick(rng)
            yield (
                StageMarkedStale(job_id=job, stage=stage, reason="PROFILE_CHANGED", marked_at=at),
                stream,
                wf,
                run,
            )
            yield StageReset(job_id=job, stage=stage, reset_attempts=False, reset_at=at), stream, wf, run
            return


def _start(
    rng: random.Random, clock: _Clock, job: str, stage: Stage, attempt: int, where: tuple[str, str, str]
) -> Iterator[Emitted]:
    """A start (owned stages carry their owner, v2); now and then the row is queued first."""
    stream, wf, run = where
    if rng.random() < 0.2:  # Pending -> Queued -> Running
        yield StageEnqueued(job_id=job, stage=stage, queued_at=clock.tick(rng)), stream, wf, run
    owner = StageOwnerRef(wf, run, 1) if stage in ("score", "tailor", "cover") else None
    started = StageStarted(
        job_id=job, stage=stage, attempt_number=attempt, started_at=clock.tick(rng), owner=owner
    )
    yield started, stream, wf, run


def _steps(rng: random.Random, clock: _Clock, ex: ExecutionRef, kind: Any, item: str) -> Iterator[Emitted]:
    stream = f"steps-{ex.workflow_id}-{ex.temporal_run_id}"
    attempts = rng.choice((1, 1, 1, 2, 3))
    for attempt in range(1, attempts + 1):
        common: dict[str, Any] = {"execution": ex, "step_kind": kind, "item_key": item, "attempt": attempt}
        yield PipelineStepQueued(**common, detail=None, queued_at=clock.tick(rng)), stream, None, None
        yield PipelineStepStarted(**common, detail=None, started_at=clock.tick(rng)), stream, None, None
        if attempt < attempts:
            yield (
                PipelineStepFailed(
                    **common,
                    detail=None,
                    failed_at=clock.tick(rng),
                    duration_ms=10,
                    error_code="source_unavailable",
                    retryable=True,
                ),
                stream,
                None,
                None,
            )
            continue
        detail = StepDetail(
            code=rng.choice(("jobs_observed", "jobs_planned", "raw_debug_text")),
            item_count=rng.randint(0, 40),
        )
        yield (
            PipelineStepCompleted(**common, detail=detail, completed_at=clock.tick(rng), duration_ms=1200),
            stream,
            None,
            None,
        )
        if rng.random() < 0.2:  # a duplicate terminal of the same attempt: the first one wins
            yield (
                PipelineStepFailed(
                    **common,
                    detail=None,
                    failed_at=clock.tick(rng),
                    duration_ms=5,
                    error_code="late_duplicate",
                    retryable=False,
                ),
                stream,
                None,
                None,
            )
    if attempts > 1 and rng.random() < 0.5:  # a late event of an older attempt is ignored
        late = {"execution": ex, "step_kind": kind, "item_key": item, "attempt": 1}
        yield PipelineStepStarted(**late, detail=None, started_at=clock.tick(rng)), stream, None, None


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
        ex = ExecutionRef(tenant_id="local", workflow_id=wf, temporal_run_id=run)
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


_SOURCES = tuple(f"greenhouse:employer-{i}" for i in range(6))


def _execution_story(
    rng: random.Random, clock: _Clock, wf: str, run: str, jobs: list[int], families: int
) -> Iterator[Emitted]:
    """The discovery run and the execution membership of one Discover run: progress reports (some
    late or shrinking, some progress-silent), members in both cohorts with promotions and a repeated
    link, work plans (failed then planned, not eligible, a late conflicting plan), observations and
    source failures, duplicate terminals and a repeated close."""
    ex = DiscoveryExecutionRefPayload(tenant_id="local", workflow_id=wf, temporal_run_id=run)
    stream = f"discoveryexecution-{wf}-{run}"
    sources = rng.sample(_SOURCES, 3)
    yield (
        DiscoveryRunStarted(
            run_id=run, source_ids=sources, profile_snapshot_id=None, started_at=clock.tick(rng)
        ),
        f"discoveryrun-{run}",
        wf,
        run,
    )
    total = families + 2
    for done in range(total + 1):
        reported = max(0, done - rng.choice((0, 0, 2)))  # a late report never moves progress back
        shown = rng.choice((total, total, total - 1, 0))  # a shrinking total, or a silent report
        yield (
            DiscoveryRunProgressRecorded(
                run_id=run, completed=reported, total=shown, recorded_at=clock.tick(rng)
            ),
            f"discoveryrun-{run}",
            wf,
            run,
        )
    for n in jobs:
        job = f"job-{n:07d}"
        cohort: CohortKind = "observed_this_run" if rng.random() < 0.6 else "existing_backlog"
        yield (
            DiscoveryExecutionMemberLinked(
                execution=ex, job_id=job, cohort=cohort, linked_at=clock.tick(rng)
            ),
            stream,
            wf,
            run,
        )
        if cohort == "existing_backlog" and rng.random() < 0.5:
            yield (
                DiscoveryExecutionMemberPromoted(execution=ex, job_id=job, promoted_at=clock.tick(rng)),
                stream,
                wf,
                run,
            )
        if rng.random() < 0.1:  # a repeated link never demotes nor duplicates
            yield (
                DiscoveryExecutionMemberLinked(
                    execution=ex, job_id=job, cohort="existing_backlog", linked_at=clock.tick(rng)
                ),
                stream,
                wf,
                run,
            )
        source = rng.choice(sources)
        yield (
            JobSourceObserved(
                job_id=job,
                source_observation_id=f"obs-{run}-{n}",
                source_id=source,
                source_native_id=str(n),
                observed_url=f"https://boards.example/{n}",
                run_id=run,
                observed_at=clock.tick(rng),
            ),
            stream,
            wf,
            run,
        )
        roll = rng.random()
        if roll < 0.1:
            yield _plan(ex, job, "failed", None, "llm_unavailable", clock.tick(rng)), stream, wf, run
        if roll < 0.8:
            yield _plan(ex, job, "planned", f"prepare-{job}", None, clock.tick(rng)), stream, wf, run
        else:
            yield (
                _plan(ex, job, "not_eligible", None, "below_fit_threshold", clock.tick(rng)),
                stream,
                wf,
                run,
            )
        if rng.random() < 0.05:  # a late conflicting plan: a final plan never changes
            yield _plan(ex, job, "failed", None, "late", clock.tick(rng)), stream, wf, run
    if rng.random() < 0.3:
        source = rng.choice(sources)
        yield (
            DiscoveryRunFailed(
                run_id=run,
                source_id=source,
                error_class="source_unavailable",
                retryable=True,
                failed_at=clock.tick(rng),
            ),
            f"discoveryrun-{run}",
            wf,
            run,
        )
        yield (
            SourceStateChanged(
                source_id=source,
                from_state="active",
                to_state=rng.choice(("quarantined", "active")),
                reason="consecutive_failures",
                changed_at=clock.tick(rng),
            ),
            f"source-{source}",
            wf,
            run,
        )
    counts = DiscoveryRunCounts(
        total=len(jobs),
        new_jobs=len(jobs),
        existing_jobs=0,
        observed_jobs=len(jobs),
        duplicate_jobs=0,
        rejected_duplicates=0,
    )
    for _ in range(2):  # the second terminal is a duplicate: the first wins
        yield (
            DiscoveryRunCompleted(run_id=run, counts=counts, error_classes=[], completed_at=clock.tick(rng)),
            f"discoveryrun-{run}",
            wf,
            run,
        )
        yield (
            DiscoveryExecutionMembershipClosed(
                execution=ex, member_count=len(jobs), closed_at=clock.tick(rng)
            ),
            stream,
            wf,
            run,
        )


def _plan(
    ex: DiscoveryExecutionRefPayload, job: str, state: Any, child: str | None, reason: str | None, at: str
) -> DiscoveryExecutionWorkPlanRecorded:
    return DiscoveryExecutionWorkPlanRecorded(
        execution=ex,
        job_id=job,
        state=state,
        required_steps=["enrich", "score", "tailor"] if state == "planned" else [],
        child_workflow_id=child,
        reason_code=reason,
        recorded_at=at,
    )


def _tenant_story(rng: random.Random, clock: _Clock) -> Iterator[Emitted]:
    """Source registrations, scoring policy versions (one arriving late) and profile revisions with
    their continuation outbox (dispatched or coalesced)."""
    for source in _SOURCES:
        yield (
            SourceRegistryEntryCreated(
                source_id=source,
                kind="ats_api",
                policy_id="default",
                state="active",
                created_at=clock.tick(rng),
            ),
            f"source-{source}",
            None,
            None,
        )
    for version in (1, 3, 2):  # version 2 arrives after 3 and is ignored
        yield (
            ScoringPolicyUpdated(
                policy_id="default",
                policy_version=version,
                previous_policy_version=version - 1 or None,
                policy_fingerprint=f"fp-{version}",
                changed_fields=["criteria"],
                criteria=f"criteria {version}",
                strong_band_min=8,
                good_band_min=6,
                stretch_band_min=4,
                updated_at=clock.tick(rng),
            ),
            "scoringpolicy-default",
            None,
            None,
        )
    for version in range(1, 4):
        at = clock.tick(rng)
        yield (
            ProfileRevisionSaved(
                profile_version=version,
                content={"summary": "x", "skills": ["python"]},
                facts_digest=f"facts-{version}",
                presentation_digest="presentation-1",
                saved_at=at,
            ),
            "profile-local",
            None,
            None,
        )
        intent = f"intent-{version}"
        yield (
            ProfileContinuationQueued(
                intent_id=intent,
                profile_version=version,
                profile_event_id=f"p-{version}",
                workflow_id="prepare",
                queued_at=at,
            ),
            "profile-local",
            None,
            None,
        )
        if version < 3 and rng.random() < 0.5:
            yield (
                ProfileContinuationCoalesced(
                    intent_id=intent, into_intent_id=f"intent-{version + 1}", coalesced_at=at
                ),
                "profile-local",
                None,
                None,
            )
        else:
            yield (
                ProfileContinuationDispatchIntended(intent_id=intent, workflow_id="prepare", intended_at=at),
                "profile-local",
                None,
                None,
            )


def _completed(clock: _Clock, rng: random.Random, wf: str, run: str) -> WorkflowCompleted:
    return WorkflowCompleted(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status="succeeded",
        finished_at=clock.tick(rng),
        duration_ms=rng.randint(100, 100_000),
        temporal_run_id=run,
    )


def _terminated(clock: _Clock, rng: random.Random, wf: str, run: str, code: str) -> WorkflowTerminated:
    return WorkflowTerminated(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status="terminated",
        finished_at=clock.tick(rng),
        duration_ms=None,
        temporal_run_id=run,
        error_code=code,
        error_message="run not found",
    )


def _interleave(rng: random.Random, stories: list[Iterator[Emitted]]) -> Iterator[Emitted]:
    active = list(stories)
    while active:
        i = rng.randrange(len(active))
        try:
            yield next(active[i])
        except StopIteration:
            active[i] = active[-1]
            active.pop()


def generate(
    jobs: int, *, seed: int = 7, workflows: int = 4, runs: int = 2, families: int = 4
) -> Iterator[Emitted]:
    """Stories for ``jobs`` jobs spread over ``workflows`` workflow ids, each run ``runs`` times."""
    rng = random.Random(seed)
    clock = _Clock()
    per = [list(range(w, jobs, workflows)) for w in range(workflows)]
    stories = [_workflow_story(rng, clock, f"discover-{w}", runs, per[w], families) for w in range(workflows)]
    stories.append(_tenant_story(rng, clock))
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
