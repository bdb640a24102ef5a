"""Aggregates and their repository."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobctrl.discovery.events import JobDiscovered, JobHidden
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import Aggregate, AggregateNotFound, AggregateRepository, applies
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import ConcurrencyConflict, Database, EventStore

pytestmark = pytest.mark.both_databases


class AlreadyHidden(JobCtrlError):
    code = "already_hidden"
    retryable = False


class Job(Aggregate):
    stream_prefix = "job"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.hidden = False
        self.employer = ""

    def discover(self, employer: str) -> None:
        self._record(
            JobDiscovered(
                job_id=self.id,
                posting_url="https://x",
                source="s",
                employer=employer,
                metadata={},
                discovered_at="t",
            )
        )

    def hide(self, reason: str) -> None:
        if self.hidden:
            raise AlreadyHidden(self.id)
        self._record(JobHidden(job_id=self.id, reason=reason, hidden_at="t"))

    @applies(JobDiscovered)
    def _discovered(self, event: JobDiscovered) -> None:
        self.employer = event.employer

    @applies(JobHidden)
    def _hidden(self, event: JobHidden) -> None:
        self.hidden = True


@pytest.fixture
def repo(database: Database) -> AggregateRepository[Job]:
    store = EventStore(database, registry())
    store.create_schema()
    return AggregateRepository.for_class(store, Job, clock=FixedClock(datetime(2026, 1, 1, tzinfo=UTC)))


def test_save_then_load_replays_the_stream(repo: AggregateRepository[Job]) -> None:
    job = Job("j1")
    job.discover("Acme")
    job.hide("spam")
    repo.save(job, workflow_id="wf-1")
    assert job.version == 2 and job.pending_events == ()
    loaded = repo.get("j1")
    assert (loaded.employer, loaded.hidden, loaded.version) == ("Acme", True, 2)
    assert [e.meta().workflow_id for e in repo.store.read_stream("job-j1")] == ["wf-1", "wf-1"]


def test_a_stale_copy_cannot_overwrite_a_newer_one(repo: AggregateRepository[Job]) -> None:
    job = Job("j1")
    job.discover("Acme")
    repo.save(job)
    first, second = repo.get("j1"), repo.get("j1")
    first.hide("a")
    repo.save(first)
    second.hide("b")
    with pytest.raises(ConcurrencyConflict):
        repo.save(second)
    assert repo.store.stream_version("job-j1") == 2


def test_deciding_the_same_fact_again_is_an_idempotent_retry(repo: AggregateRepository[Job]) -> None:
    job = Job("j1")
    job.discover("Acme")
    retry = Job("j1")
    retry.discover("Acme")
    repo.save(job)
    [result] = repo.save(retry)
    assert result.idempotent_replay and repo.store.head_position() == 1


def test_rules_refuse_before_anything_is_recorded(repo: AggregateRepository[Job]) -> None:
    job = Job("j1")
    job.discover("Acme")
    job.hide("x")
    repo.save(job)
    with pytest.raises(AlreadyHidden):
        repo.get("j1").hide("again")
    with pytest.raises(AggregateNotFound):
        repo.get("missing")
