"""Step definitions for features/kernel/aggregates.feature."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from sqlalchemy import select

from jobctrl.discovery.events import JobDiscovered, JobHidden
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import Aggregate, AggregateRepository, applies, save_all
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import ConcurrencyConflict, Database, EventStore
from jobctrl.kernel.store.schema import aggregate_snapshots

pytestmark = pytest.mark.both_databases
scenarios("kernel/aggregates.feature")
CLOCK = FixedClock(datetime(2026, 3, 1, tzinfo=UTC))


class Job(Aggregate):
    stream_prefix = "job"
    reasons: list[str]

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.employer = ""
        self.reasons = []

    def discover(self, employer: str) -> None:
        self._record(
            JobDiscovered(
                job_id=self.id,
                posting_url=f"https://jobs.example/{self.id}",
                source="lever:acme",
                employer=employer,
                metadata={},
                discovered_at="2026-03-01T00:00:00.000Z",
            )
        )

    def hide(self, reason: str) -> None:
        self._record(JobHidden(job_id=self.id, reason=reason, hidden_at="2026-03-01T00:00:00.000Z"))

    @applies(JobDiscovered)
    def _discovered(self, event: JobDiscovered) -> None:
        self.employer = event.employer

    @applies(JobHidden)
    def _hidden(self, event: JobHidden) -> None:
        self.reasons.append(event.reason)


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


@dataclass
class World:
    """What an aggregates scenario holds: the loaded copies of a job, a stale copy, the repository that
    snapshots, and the conflict a save raised."""

    copies: tuple[Job, Job] | None = None
    stale: Job | None = None
    snapshotting: AggregateRepository[Job] | None = None
    error: ConcurrencyConflict | None = None

    def try_save(self, action: Callable[[], object]) -> None:
        try:
            action()
        except ConcurrencyConflict as exc:
            self.error = exc


@pytest.fixture
def world() -> World:
    return World()


@given("an empty job log", target_fixture="repo")
def empty_log(database: Database) -> AggregateRepository[Job]:
    store = EventStore(database, registry())
    store.create_schema()
    return AggregateRepository.for_class(store, Job, clock=CLOCK)


@given(parsers.parse('job "{job_id}" was discovered at "{employer}" and hidden twice'))
def discovered_and_hidden(repo: AggregateRepository[Job], job_id: str, employer: str) -> None:
    job = Job(job_id)
    job.discover(employer)
    repo.save(job)
    job.hide("first")
    job.hide("second")
    repo.save(job)


@given(parsers.parse('two copies of job "{job_id}" are loaded'))
def two_copies(repo: AggregateRepository[Job], world: World, job_id: str) -> None:
    world.copies = (repo.get(job_id), repo.get(job_id))


@when(parsers.parse('the first copy hides the job as "{reason}" and is saved'))
def first_saves(repo: AggregateRepository[Job], world: World, reason: str) -> None:
    assert world.copies is not None
    first, _ = world.copies
    first.hide(reason)
    repo.save(first)


@when(parsers.parse('the second copy hides the job as "{reason}" and is saved'))
def second_saves(repo: AggregateRepository[Job], world: World, reason: str) -> None:
    assert world.copies is not None
    _, second = world.copies
    second.hide(reason)
    world.try_save(lambda: repo.save(second))


@then("the second save is refused as a concurrency conflict")
@then("the save is refused as a concurrency conflict")
def refused(world: World) -> None:
    assert isinstance(world.error, ConcurrencyConflict)


@then(parsers.parse('job "{job_id}" is at version {version:d} with reasons "{reasons}"'))
def job_state(repo: AggregateRepository[Job], job_id: str, version: int, reasons: str) -> None:
    job = repo.get(job_id)
    assert (job.version, job.reasons) == (version, reasons.split(", "))


@when(
    parsers.parse(
        'job "{job_id}" is discovered and hidden {times:d} times, '
        "saved event by event with snapshots every {interval:d} events"
    )
)
def saved_with_snapshots(
    repo: AggregateRepository[Job], world: World, job_id: str, times: int, interval: int
) -> None:
    snapshotting = AggregateRepository.for_class(repo.store, Job, clock=CLOCK, snapshot_interval=interval)
    job = Job(job_id)
    job.discover("Gamma")
    snapshotting.save(job)
    for n in range(times):
        job.hide(f"reason {n}")
        snapshotting.save(job)
    world.snapshotting = snapshotting


@then(parsers.parse('snapshots of job "{job_id}" are stored at version {version:d}'))
def snapshots_stored(repo: AggregateRepository[Job], job_id: str, version: int) -> None:
    with repo.store.db.read() as conn:
        versions = conn.execute(
            select(aggregate_snapshots.c.version).where(aggregate_snapshots.c.stream_id == f"job-{job_id}")
        ).scalars()
        assert list(versions) == [version]


@then(parsers.parse('job "{job_id}" loaded from its snapshot equals job "{same}" replayed from its events'))
def snapshot_equals_replay(repo: AggregateRepository[Job], world: World, job_id: str, same: str) -> None:
    assert world.snapshotting is not None
    from_snapshot, replayed = world.snapshotting.get(job_id), repo.get(same)
    assert vars(from_snapshot) == vars(replayed)
    assert replayed.version == 5 and replayed.reasons == [f"reason {n}" for n in range(4)]


@given(parsers.parse('a copy of job "{job_id}" that is one event behind'))
def stale_copy(repo: AggregateRepository[Job], world: World, job_id: str) -> None:
    stale = repo.get(job_id)
    current = repo.get(job_id)
    current.hide("moved on")
    repo.save(current)
    stale.hide("too late")
    world.stale = stale


@when(parsers.parse('job "{job_id}" is discovered and saved together with the stale copy of "{other}"'))
def save_together(repo: AggregateRepository[Job], world: World, job_id: str, other: str) -> None:
    assert world.stale is not None
    fresh, stale = Job(job_id), world.stale
    fresh.discover("Delta")
    world.try_save(lambda: save_all(repo.store, [(repo, fresh), (repo, stale)]))


@then(parsers.parse('job "{job_id}" does not exist'))
def does_not_exist(repo: AggregateRepository[Job], job_id: str) -> None:
    assert repo.load(job_id) is None
