"""Apply's choice of the jobs its standing loop may claim next (ADR 0321): the ready ones without an
apply run, in the order given, and no more of the given jobs read than the answer needs."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from jobctrl.apply import ClaimPolicy, CurrentJobFacts, claim_apply, select_apply_candidates
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore

pytestmark = pytest.mark.both_databases
CLOCK = FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC))


def _store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


def _claimed(store: EventStore, job: str) -> None:
    facts = CurrentJobFacts(
        job_id=job, employer=f"Employer {job}", role="Data Engineer", materials_generation=1,
        profile_version=1, application_url=f"https://jobs.example/{job}", resume_pdf_ready=True,
        score_current=True, score_eligible=True, score=8.0,
    )  # fmt: skip
    claim_apply(store, facts, ClaimPolicy(approval_required=False), run_id=f"run-{job}", worker_id="w",
                model="m", dry_run=True, clock=CLOCK)  # fmt: skip


def test_the_ready_jobs_without_an_apply_run_in_the_given_order(database: Database) -> None:
    store = _store(database)
    _claimed(store, "j2")  # tried once already: the loop never takes it again
    ready = {"j1", "j2", "j4", "j5"}
    jobs = ["j5", "j1", "j2", "j3", "j4"]
    assert select_apply_candidates(store, jobs, ready=ready.__contains__, limit=10, clock=CLOCK) == [
        "j5", "j1", "j4",
    ]  # fmt: skip
    assert select_apply_candidates(store, jobs, ready=ready.__contains__, limit=2, clock=CLOCK) == [
        "j5",
        "j1",
    ]


def test_the_given_jobs_are_read_no_further_than_the_limit(database: Database) -> None:
    store = _store(database)
    read: list[str] = []

    def jobs() -> Iterator[str]:
        for n in range(1, 1000):
            read.append(f"j{n}")
            yield f"j{n}"

    assert select_apply_candidates(store, jobs(), ready=lambda job: True, limit=3, clock=CLOCK) == [
        "j1",
        "j2",
        "j3",
    ]
    assert read == ["j1", "j2", "j3"]
