"""Aggregates on the eventsourcing library: our mapper, recorders and snapshots over job_events."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import msgspec
import pytest
from eventsourcing.persistence import IntegrityError
from sqlalchemy import func, select, update

from jobctrl.discovery.events import JobDiscovered, JobHidden
from jobctrl.domain_types import registry
from jobctrl.kernel.aggregate import Aggregate, AggregateRepository, applies, save_all
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.es.recorder import JobEventsRecorder
from jobctrl.kernel.es.snapshots import SnapshotStateError
from jobctrl.kernel.registry import EventRegistry, EventValidationError, Upcaster
from jobctrl.kernel.store import ConcurrencyConflict, Database, EventStore, job_events
from jobctrl.kernel.store.schema import aggregate_snapshots
from jobctrl.testing.evolved_events import JobHiddenV2

pytestmark = pytest.mark.both_databases
CLOCK = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))


class Posting(Aggregate):
    """A job posting whose state has several attribute types, snapshotted every 3 events."""

    stream_prefix = "posting"
    snapshot_interval = 3
    employers: list[str]
    sources: set[str]
    hidden_reasons: dict[str, int]
    hidden: bool

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.employers = []
        self.sources = set()
        self.hidden_reasons = {}
        self.hidden = False

    def discover(self, employer: str, source: str) -> None:
        self._record(
            JobDiscovered(
                job_id=self.id,
                posting_url=f"https://jobs.example/{self.id}",
                source=source,
                employer=employer,
                metadata={},
                discovered_at="2026-01-01T00:00:00.000Z",
            )
        )

    def hide(self, reason: str) -> None:
        self._record(JobHidden(job_id=self.id, reason=reason, hidden_at="2026-01-01T00:00:00.000Z"))

    @applies(JobDiscovered)
    def _discovered(self, event: JobDiscovered) -> None:
        self.employers.append(event.employer)
        self.sources.add(event.source)

    @applies(JobHidden)
    def _hidden(self, event: JobHidden) -> None:
        self.hidden = True
        self.hidden_reasons[event.reason] = self.hidden_reasons.get(event.reason, 0) + 1


def make_store(database: Database, reg: EventRegistry | None = None) -> EventStore:
    store = EventStore(database, reg or registry())
    store.create_schema()
    return store


def count(store: EventStore, table: object) -> int:
    with store.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]


def build(repo: AggregateRepository[Posting], aggregate_id: str, saves: int) -> Posting:
    posting = Posting(aggregate_id)
    for n in range(saves):
        posting.discover(f"Employer {n}", f"source-{n % 3}")
        if n % 2:
            posting.hide(f"reason-{n % 4}")
        repo.save(posting)
    return posting


def test_snapshots_are_written_at_the_interval_and_restore_the_replayed_state(database: Database) -> None:
    store = make_store(database)
    repo = AggregateRepository.for_class(store, Posting, clock=CLOCK)
    written = build(repo, "p1", saves=6)  # 9 events over 6 saves
    assert written.version == 9
    with store.db.read() as conn:
        versions = list(
            conn.execute(
                select(aggregate_snapshots.c.version).order_by(aggregate_snapshots.c.version)
            ).scalars()
        )
    assert versions == [3, 6, 9]  # the saves that reached versions 3, 6 and 9 crossed a multiple of 3
    replay_only = AggregateRepository.for_class(store, Posting, clock=CLOCK, snapshot_interval=None)
    from_snapshot, replayed = repo.get("p1"), replay_only.get("p1")
    assert vars(from_snapshot) == vars(replayed) == vars(written)
    assert isinstance(from_snapshot.sources, set)


def test_a_load_starts_from_the_latest_snapshot(database: Database) -> None:
    store = make_store(database)
    repo = AggregateRepository.for_class(store, Posting, clock=CLOCK)
    build(repo, "p1", saves=2)  # versions 1..3: one snapshot at 3
    with store.db.write() as conn:  # tamper with the cached state: a load that uses it shows it
        row = conn.execute(select(aggregate_snapshots.c.state)).scalar_one()
        data = msgspec.json.decode(row)
        data["state"]["employers"] = ["from the snapshot"]
        conn.execute(update(aggregate_snapshots).values(state=msgspec.json.encode(data).decode()))
    assert repo.get("p1").employers == ["from the snapshot"]
    assert AggregateRepository.for_class(store, Posting, snapshot_interval=None).get("p1").employers == [
        "Employer 0",
        "Employer 1",
    ]


def test_a_snapshot_of_an_older_state_shape_is_ignored(database: Database) -> None:
    store = make_store(database)
    build(AggregateRepository.for_class(store, Posting, clock=CLOCK), "p1", saves=2)  # snapshot v1 at 3
    with store.db.write() as conn:  # if the old-shape row were restored, the state would be empty
        conn.execute(update(aggregate_snapshots).values(state='{"aggregateId":"p1","state":{}}'))

    class PostingV2(Posting):
        snapshot_state_version = 2

    loaded = AggregateRepository.for_class(store, PostingV2, clock=CLOCK).get("p1")
    assert loaded.employers == ["Employer 0", "Employer 1"] and loaded.hidden


def test_a_conflicting_save_through_the_library_writes_neither_events_nor_snapshots(
    database: Database,
) -> None:
    store = make_store(database)
    repo = AggregateRepository.for_class(store, Posting, clock=CLOCK)
    build(repo, "p1", saves=1)  # version 1
    first, second = repo.get("p1"), repo.get("p1")
    first.discover("A", "s")
    first.discover("B", "s")
    repo.save(first)  # version 3, snapshot at 3
    second.discover("C", "s")
    second.discover("D", "s")
    with pytest.raises(ConcurrencyConflict) as caught:
        repo.save(second)
    assert isinstance(caught.value, IntegrityError)  # the library's own conflict type
    assert count(store, job_events) == 3 and count(store, aggregate_snapshots) == 1
    assert repo.get("p1").employers == ["Employer 0", "A", "B"]


def test_concurrent_savers_of_one_stream_cannot_both_win(database: Database) -> None:
    store = make_store(database)
    repo = AggregateRepository.for_class(store, Posting, clock=CLOCK)
    build(repo, "p1", saves=1)
    copies = [repo.get("p1") for _ in range(4)]
    outcomes: list[str] = []
    barrier = threading.Barrier(len(copies))

    def save(copy: Posting, n: int) -> None:
        copy.discover(f"racer {n}", "s")
        barrier.wait()
        try:
            repo.save(copy)
            outcomes.append("won")
        except ConcurrencyConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=save, args=(c, n)) for n, c in enumerate(copies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == ["conflict", "conflict", "conflict", "won"]
    assert repo.get("p1").version == 2 and count(store, job_events) == 2


def test_rows_carry_registry_names_and_camel_case_state(database: Database) -> None:
    store = make_store(database)
    repo = AggregateRepository.for_class(store, Posting, clock=CLOCK)
    build(repo, "p1", saves=2)
    recorder = JobEventsRecorder(store)
    notifications = recorder.select_notifications(1, 10)
    assert [n.topic for n in notifications] == ["JobDiscovered", "JobDiscovered", "JobHidden"]
    assert msgspec.json.decode(notifications[0].state)["postingUrl"] == "https://jobs.example/p1"
    assert [n.id for n in recorder.select_notifications(1, 10, topics=["JobHidden"])] == [3]
    assert recorder.max_notification_id() == 3
    assert [e.originator_version for e in recorder.select_events("posting-p1", gt=1, lte=2)] == [2]


def test_old_schema_versions_are_upcast_through_the_registry_on_load(database: Database) -> None:
    class Hideable(Aggregate):
        stream_prefix = "posting"

        def __init__(self, aggregate_id: str) -> None:
            super().__init__(aggregate_id)
            self.hidden_by = ""

        @applies(JobDiscovered)
        def _discovered(self, event: JobDiscovered) -> None:
            pass

        @applies(JobHiddenV2)
        def _hidden(self, event: JobHiddenV2) -> None:
            self.hidden_by = event.hidden_by

    v1_store = make_store(database)
    build(AggregateRepository.for_class(v1_store, Posting, clock=CLOCK, snapshot_interval=None), "p1", 2)
    base = registry()
    v2 = EventRegistry(
        tuple(JobHiddenV2 if c.event_type == "JobHidden" else c for c in base.classes),
        (Upcaster("JobHidden", 1, lambda p: {**p, "hiddenBy": "someone before v2"}),),
    )
    loaded = AggregateRepository.for_class(EventStore(database, v2), Hideable).get("p1")
    assert loaded.hidden_by == "someone before v2" and loaded.version == 3


def test_state_that_does_not_round_trip_refuses_the_save_and_writes_nothing(database: Database) -> None:
    class Untyped(Posting):
        stream_prefix = "untyped"

        @applies(JobDiscovered)
        def _discovered(self, event: JobDiscovered) -> None:
            self.seen = {event.employer}  # a set with no annotation comes back as a list

    store = make_store(database)
    repo = AggregateRepository.for_class(store, Untyped, clock=CLOCK)
    item = Untyped("u1")
    for n in range(3):
        item.discover(f"E{n}", "s")
    with pytest.raises(SnapshotStateError, match="seen"):
        repo.save(item)
    assert count(store, job_events) == 0 and count(store, aggregate_snapshots) == 0


def test_invalid_event_through_the_library_path_writes_nothing(database: Database) -> None:
    store = EventStore(database, registry(), max_payload_bytes=1024)
    store.create_schema()
    repo = AggregateRepository.for_class(store, Posting, clock=CLOCK)
    good, bad = Posting("p1"), Posting("p2")
    good.discover("Acme", "s")
    bad.discover("x" * 5000, "s")  # over the store's payload limit
    with pytest.raises(EventValidationError):
        save_all(store, [(repo, good), (repo, bad)])
    assert count(store, job_events) == 0 and good.pending_events


def test_the_recorder_refuses_to_subscribe_the_projection_runner_follows_the_log(database: Database) -> None:
    recorder = JobEventsRecorder(make_store(database))
    with pytest.raises(NotImplementedError, match="ProjectionRunner"):
        recorder.subscribe(gt=0)
