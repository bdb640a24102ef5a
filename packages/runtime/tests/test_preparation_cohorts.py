"""Which jobs each preparation cohort prepares (ADR 0263): orchestration's
``derive_preparation_targets`` driven directly, on SQLite and PostgreSQL, over discovery's real
jobs and execution (wired as the composition root wires them) and orchestration's own stage tracker
and profile."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.discovery import (
    Job,
    execution_members,
    known_job_ids,
    link_execution_members,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import (
    PreparationTarget,
    StageTrackerService,
    derive_preparation_targets,
    save_profile,
)

pytestmark = pytest.mark.both_databases
CLOCK = FixedClock()
OWNER = StepOwner("discover-local", "r-1", 1)
PROFILE = {"summary": [{"id": "sum-1", "text": "Backend engineer"}]}


class DiscoveryJobs:
    """``PreparationCandidates`` over discovery's use cases (the composition root's wiring)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def known_jobs(self) -> Iterable[str]:
        return known_job_ids(self.store)

    def members(self, tenant_id: str, workflow_id: str, run_id: str, cohort: str) -> list[str]:
        return execution_members(
            self.store, ExecutionRef(tenant_id, workflow_id, run_id), cohort, clock=CLOCK
        )


def _passed(tracker: StageTrackerService, job_id: str, *stages: Stage) -> None:
    for stage in stages:
        assert tracker.begin(job_id, stage, OWNER)
        tracker.succeed(job_id, stage, OWNER)


def test_each_cohort_prepares_its_enriched_jobs_under_the_saved_profile(database: Database) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    repo = AggregateRepository.for_class(store, Job)
    for job_id in ("j1", "j2", "j3", "j4", "j5"):
        job = Job(job_id)
        job.discover(
            posting_url=f"https://jobs.example/{job_id}", source="lever", employer="Acme", metadata={}, at="t"
        )
        repo.save(job)
    ref = ExecutionRef("local", "discover-local", "r-1")
    link_execution_members(store, ref, ["j1", "j2"], "observed_this_run", clock=CLOCK)
    link_execution_members(store, ref, ["j3"], "existing_backlog", clock=CLOCK)
    tracker = StageTrackerService(store, clock=CLOCK)
    for job_id in ("j1", "j3", "j5"):
        _passed(tracker, job_id, "enrich")  # j2: never enriched
    _passed(tracker, "j4", "enrich", "score")  # j4: scored already

    def targets(cohort: str, run_id: str = "r-1") -> list[str]:
        found = derive_preparation_targets(
            store, "local", run_id, cohort, candidates=DiscoveryJobs(store), tracker=tracker
        )
        assert all(t == PreparationTarget(t.job_id, "score_job", 1, "profile-1") for t in found)
        return [t.job_id for t in found]

    cohorts = ("observed_this_run", "existing_backlog", "profile_continuation")
    for cohort in cohorts:  # no saved profile yet: nothing to prepare under
        assert (
            derive_preparation_targets(
                store, "local", "r-1", cohort, candidates=DiscoveryJobs(store), tracker=tracker
            )
            == []
        )
    save_profile(store, PROFILE)
    assert targets("observed_this_run") == ["j1"]  # this run's observed members, enriched
    assert targets("observed_this_run", run_id="r-2") == []  # another execution's: none of these
    assert targets("existing_backlog") == ["j1", "j3", "j5"]  # every enriched job not scored yet
    assert targets("profile_continuation") == ["j1", "j3", "j4", "j5"]  # every enriched job
