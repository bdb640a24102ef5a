"""One job's story through its stages: failures, retries, blocks, resets, exhaustion."""

from __future__ import annotations

import random
from collections.abc import Iterator

from jobctrl.apply.events import ApplicationSubmitted, ApplyRunStarted
from jobctrl.discovery.events import (
    JobDiscovered,
)
from jobctrl.enrichment.events import JobEnriched
from jobctrl.materials.events import CoverLetterGenerated, ResumeApproved
from jobctrl.orchestration.events import (
    StageBlocked,
    StageCompleted,
    StageExhausted,
    StageFailed,
    StageMarkedStale,
    StageReset,
    StageUnblocked,
)
from jobctrl.scoring.events import JobScored
from jobctrl.testing.synthetic._common import _STAGES, Emitted, _Clock
from jobctrl.testing.synthetic.workflows import _start


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
