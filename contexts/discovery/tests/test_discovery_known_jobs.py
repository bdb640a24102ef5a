"""Discovery's known jobs (ADR 0260): every discovered job once, oldest first, read in bounded pages
of its own fact only, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from jobctrl.discovery import (
    Job,
    discovered_job,
    iter_known_job_ids,
    known_job_ids,
    link_execution_members,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore

pytestmark = pytest.mark.both_databases
AT = "2026-03-01T09:00:00Z"


def _discover(store: EventStore, *job_ids: str) -> None:
    repo = AggregateRepository.for_class(store, Job)
    for job_id in job_ids:
        job = repo.load(job_id) or Job(job_id)
        job.discover(
            posting_url=f"https://jobs.example/{job_id}", source="lever", employer="Acme", metadata={}, at=AT
        )
        job.observe(
            observation_id=f"obs-{job_id}", source_id="lever:acme", native_id=job_id,
            observed_url=f"https://jobs.example/{job_id}", run_id="r-1", at=AT,
        )  # fmt: skip
        repo.save(job)


def _store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


def test_every_discovered_job_once_oldest_first_across_page_boundaries(database: Database) -> None:
    store = _store(database)
    _discover(store, "j-c", "j-a", "j-e", "j-b", "j-d")
    # other facts naming the same jobs (observations, memberships) are not discoveries
    link_execution_members(
        store, ExecutionRef("local", "discover-local", "r-1"), ["j-a", "j-b"], "observed_this_run",
        clock=FixedClock(),
    )  # fmt: skip
    _discover(store, "j-a")  # rediscovering records nothing (a job is discovered once)
    expected = ["j-c", "j-a", "j-e", "j-b", "j-d"]
    assert known_job_ids(store) == expected
    for page in (1, 2, 5, 6):  # a page boundary inside, at and past the end of the answer
        assert known_job_ids(store, page=page) == expected


def test_pages_are_read_one_at_a_time_as_the_caller_asks(database: Database) -> None:
    store = _store(database)
    _discover(store, "j-1", "j-2", "j-3", "j-4")
    jobs = iter_known_job_ids(store, page=2)
    assert [next(jobs), next(jobs)] == ["j-1", "j-2"]  # one page read; the rest not yet
    _discover(store, "j-5")  # discovered meanwhile: the next pages, read only now, include it
    assert list(jobs) == ["j-3", "j-4", "j-5"]


def test_an_empty_log_knows_no_job_and_a_page_holds_at_least_one_row(database: Database) -> None:
    store = _store(database)
    assert known_job_ids(store) == []
    with pytest.raises(ConfigurationError, match="at least one row"):
        known_job_ids(store, page=0)


def test_one_jobs_fact_is_found_by_its_id_and_an_unknown_job_has_none(database: Database) -> None:
    store = _store(database)
    _discover(store, "j-1", "j-2")
    found = discovered_job(store, "j-2")
    assert found is not None
    assert (found.job_id, found.posting_url, found.source) == ("j-2", "https://jobs.example/j-2", "lever")
    assert discovered_job(store, "j-3") is None
