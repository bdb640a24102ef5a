"""Discover executions (runs, memberships, work plans) and the tenant's own story."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryRunCompleted,
    DiscoveryRunCounts,
    DiscoveryRunFailed,
    DiscoveryRunProgressRecorded,
    DiscoveryRunStarted,
    JobSourceObserved,
    SourceRegistryEntryCreated,
    SourceStateChanged,
)
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.orchestration.events import (
    ProfileContinuationCoalesced,
    ProfileContinuationDispatchIntended,
    ProfileContinuationQueued,
    ProfileRevisionSaved,
)
from jobctrl.scoring.events import ScoringPolicyUpdated
from jobctrl.testing.synthetic._common import Emitted, _Clock

_SOURCES = tuple(f"greenhouse:employer-{i}" for i in range(6))


def scoring_policy_saved(policy_id: str, version: int, *, criteria: str, at: str) -> ScoringPolicyUpdated:
    """Version ``version`` of a scoring policy whose criteria changed (bands 8/6/4), at ``at``."""
    return ScoringPolicyUpdated(
        policy_id=policy_id, policy_version=version, previous_policy_version=version - 1 or None,
        policy_fingerprint=f"fp-{version}", changed_fields=["criteria"], criteria=criteria,
        strong_band_min=8, good_band_min=6, stretch_band_min=4, updated_at=at,
    )  # fmt: skip


def _execution_story(
    rng: random.Random, clock: _Clock, wf: str, run: str, jobs: list[int], families: int
) -> Iterator[Emitted]:
    """The discovery run and the execution membership of one Discover run: progress reports (some
    late or shrinking, some progress-silent), members in both cohorts with promotions and a repeated
    link, work plans (failed then planned, not eligible, a late conflicting plan), observations and
    source failures, duplicate terminals and a repeated close."""
    ex = ExecutionRefPayload(tenant_id="local", workflow_id=wf, temporal_run_id=run)
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
    ex: ExecutionRefPayload, job: str, state: Any, child: str | None, reason: str | None, at: str
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
            scoring_policy_saved("default", version, criteria=f"criteria {version}", at=clock.tick(rng)),
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
