"""Append throughput: our store against raw sqlite3 and the eventsourcing library's stock SQLite stack.

All three write the same payloads, at 1, 100 and 1000 events per transaction, to files in one
temporary directory (same file system), each database in WAL mode with ``synchronous=NORMAL``
(our durability setting, ADR 0002):

* ``ours``: ``EventStore.append`` of prepared ``NewEvent``s (validation, id and version checks,
  encoding and insert, one transaction per call).
* ``raw``: ``sqlite3`` ``executemany`` of the already-encoded rows into a ``job_events`` table created
  from the same SQLAlchemy table definition (same columns, indexes and constraints), one
  ``BEGIN IMMEDIATE`` … ``COMMIT`` per batch.  It does no validation: it is the floor.
* ``raw_encoding``: raw sqlite3 again, given the same prepared ``NewEvent``s as ours: inside its clock it
  builds each row from the event and encodes the payload and metadata JSON (the same msgspec
  encoder settings as the store), then the same ``executemany``.  No validation, no checks.  A
  second floor beside ``raw`` (ADR 0441): the one step no store of these events as JSON text can
  skip.  ``raw`` and its ratios are unchanged.
* ``stock_es``: the library's stock path, ``eventsourcing.persistence.EventStore`` with its default
  ``Mapper``/``JSONTranscoder`` over ``SQLiteApplicationRecorder`` (its ``stored_events`` table), storing
  library aggregate events that carry the same payload fields.  Its connections get the same
  ``synchronous=NORMAL`` pragma (its default would fsync every commit, which would flatter us).

Each rate is the median of ``JOBCTRL_BENCH_REPEATS`` (default 7; ``JOBCTRL_BENCH_ROUNDS`` overrides
it) interleaved rounds over ``JOBCTRL_BENCH_EVENTS`` events (default 20,000; the 1-per-transaction
case uses a fifth of that).  ``append.ratio_vs_raw.{1,100,1000}`` and ``append.ratio_vs_stock_es.100``
are medians of the per-round ratios (ADR 0006, 0230), and so is ``append.ratio_vs_raw_encoding.*``.
Beside them, ``append.cpu_ratio_vs_raw.*``, ``append.cpu_ratio_vs_raw_encoding.*`` and
``append.cpu_ratio_vs_stock_es.100`` give the same ratios in process CPU time (ADR 0421): an append's
wall time here is one and a half to three times its CPU time (WAL writes, checkpoint syncs), and the
wall figure of one subject moved by 2x between rounds a minute apart, where the CPU figure moved by a
few percent.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.domain import Aggregate as EsAggregate
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper, UUIDAsHex
from eventsourcing.persistence import EventStore as EsEventStore
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnectionPool, SQLiteDatastore
from sqlalchemy import create_mock_engine
from sqlalchemy.schema import CreateIndex, CreateTable

from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import EventStore, job_events, open_database
from jobctrl.testing.bench.method import Samples, Subject, interleave, rounds

BATCH_SIZES = (1, 100, 1000)
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _events(total: int, tag: str) -> list[NewEvent]:
    return [
        NewEvent.of(
            JobDiscovered(
                job_id=f"job-{tag}-{n}",
                posting_url=f"https://jobs.example/{tag}/{n}",
                source="greenhouse:acme",
                employer="Acme Corporation",
                metadata={"title": "Senior Engineer", "location": "Remote", "team": "Platform"},
                discovered_at="2026-03-01T12:00:00.000Z",
            ),
            occurred_at=NOW,
            correlation_id=f"corr-{tag}",
            workflow_id="discover-local",
            run_id="run-1",
            attempt=1,
        )
        for n in range(total)
    ]


def _batches(events: list[NewEvent], size: int) -> list[list[NewEvent]]:
    return [events[i : i + size] for i in range(0, len(events), size)]


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


#: One sample: (wall rate, CPU rate), events per second of each.
Rates = tuple[float, float]


class _Clock:
    """Wall and process CPU time from one start."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def rates(self, count: int) -> Rates:
        return _rate(count, time.perf_counter() - self.wall), _rate(count, time.process_time() - self.cpu)


# -- (a) ours ---------------------------------------------------------------------------------------
def _ours(directory: Path, size: int, total: int, run: int) -> Rates:
    db = open_database(f"sqlite:///{directory / f'ours-{size}-{run}.db'}")
    try:
        store = EventStore(db, registry())
        store.create_schema()
        batches = _batches(_events(total, f"o{size}-{run}"), size)
        clock = _Clock()
        for i, batch in enumerate(batches):
            store.append(f"stream-{i}", 0, batch)
        rates = clock.rates(total)
        with db.read() as conn:
            _same_durability(conn.connection.driver_connection)
        return rates
    finally:
        db.dispose()


# -- (b) raw sqlite3 ---------------------------------------------------------------------------------
def _job_events_ddl() -> list[str]:
    statements: list[str] = []
    engine = create_mock_engine("sqlite://", lambda *_a, **_k: None)
    statements.append(str(CreateTable(job_events).compile(dialect=engine.dialect)))
    statements.extend(str(CreateIndex(ix).compile(dialect=engine.dialect)) for ix in job_events.indexes)
    return statements


def _connect_raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


#: What every subject's connection must report (ADR 0006): WAL, ``synchronous=NORMAL`` (1).
DURABILITY = ("wal", 1)


def _same_durability(conn: Any) -> None:
    """Fail the suite if a subject's connection does not write with the durability all must share."""
    got = tuple(conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("journal_mode", "synchronous"))
    if got != DURABILITY:
        raise AssertionError(f"a subject writes with journal_mode, synchronous = {got}, not {DURABILITY}")


_RAW_INSERT = (
    "INSERT INTO job_events (event_id, stream_id, stream_version, event_type, schema_version, tenant_id,"
    " job_id, occurred_at, payload, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _raw(directory: Path, size: int, total: int, run: int) -> Rates:
    conn = _connect_raw(directory / f"raw-{size}-{run}.db")
    try:
        for statement in _job_events_ddl():
            conn.execute(statement)
        encoder = msgspec.json.Encoder()
        # The rows are encoded before the clock starts: the raw baseline is the cost of the insert alone.
        batches = [
            [
                (
                    new.event_id,
                    f"stream-{i}",
                    v,
                    new.event.event_type,
                    1,
                    new.tenant_id,
                    getattr(new.event, "job_id", None),
                    new.occurred_at,
                    encoder.encode(new.event).decode(),
                    encoder.encode(new.metadata).decode(),
                )
                for v, new in enumerate(batch, start=1)
            ]
            for i, batch in enumerate(_batches(_events(total, f"r{size}-{run}"), size))
        ]
        clock = _Clock()
        for rows in batches:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(_RAW_INSERT, rows)
            conn.execute("COMMIT")
        rates = clock.rates(total)
        _same_durability(conn)
        return rates
    finally:
        conn.close()


def _raw_encoding(directory: Path, size: int, total: int, run: int) -> Rates:
    """Raw sqlite3 given ours's input: each row built and its JSON encoded inside the clock (ADR 0441)."""
    conn = _connect_raw(directory / f"raw-encoding-{size}-{run}.db")
    try:
        for statement in _job_events_ddl():
            conn.execute(statement)
        encode = msgspec.json.Encoder().encode  # the store's encoder settings: the same bytes
        batches = _batches(_events(total, f"e{size}-{run}"), size)
        clock = _Clock()
        for i, batch in enumerate(batches):
            stream = f"stream-{i}"
            rows = [
                (
                    new.metadata.event_id,
                    stream,
                    v,
                    new.event.event_type,
                    new.event.schema_version,
                    new.tenant_id,
                    getattr(new.event, "job_id", None),
                    new.occurred_at,
                    encode(new.event).decode(),
                    encode(new.metadata).decode(),
                )
                for v, new in enumerate(batch, start=1)
            ]
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(_RAW_INSERT, rows)
            conn.execute("COMMIT")
        rates = clock.rates(total)
        _same_durability(conn)
        stored = conn.execute("SELECT count(*) FROM job_events").fetchone()[0]
        assert stored == total, f"raw_encoding stored {stored} of {total} rows"
        return rates
    finally:
        conn.close()


# -- (c) the eventsourcing library's stock SQLite stack ------------------------------------------------
class _StockPosting(EsAggregate):
    """A stock library aggregate whose event carries the same payload fields as JobDiscovered."""

    class Discovered(EsAggregate.Event):
        job_id: str
        posting_url: str
        source: str
        employer: str
        metadata: dict[str, str]
        discovered_at: str


class _SameDurabilityPool(SQLiteConnectionPool):
    def _create_connection(self) -> Any:
        connection = super()._create_connection()
        connection.cursor().execute("PRAGMA synchronous=NORMAL")
        return connection


def _stock_es(directory: Path, size: int, total: int, run: int) -> Rates:
    datastore = SQLiteDatastore(str(directory / f"stock-{size}-{run}.db"))
    datastore.pool = _SameDurabilityPool(db_name=datastore.pool.db_name)
    recorder = SQLiteApplicationRecorder(datastore)
    recorder.create_table()
    transcoder = JSONTranscoder()  # registered as a stock Application registers them
    transcoder.register(UUIDAsHex())
    transcoder.register(DatetimeAsISO())
    store: EsEventStore[UUID] = EsEventStore(Mapper(transcoder), recorder)
    try:
        batches = []
        for i, batch in enumerate(_batches(_events(total, f"s{size}-{run}"), size)):
            originator = uuid5(NAMESPACE_URL, f"stream-{i}-{run}")
            batches.append(
                [
                    _StockPosting.Discovered(
                        originator_id=originator,
                        originator_version=v,
                        timestamp=NOW,
                        **msgspec.structs.asdict(new.event),
                    )
                    for v, new in enumerate(batch, start=1)
                ]
            )
        clock = _Clock()
        for domain_events in batches:
            store.put(domain_events)
        rates = clock.rates(total)
        assert recorder.select_events(batches[0][0].originator_id), "the stock recorder stored nothing"
        with datastore.transaction(commit=False) as cursor:
            _same_durability(cursor.sqlite_cursor.connection)
        return rates
    finally:
        datastore.close()


@dataclass(frozen=True)
class _Subject:
    name: str
    measure: Callable[[Path, int, int, int], Rates]

    def subject(self, directory: Path, size: int, count: int, cpu_rates: dict[str, list[float]]) -> Subject:
        """A bench subject: the wall rate of one round, its CPU rate kept in ``cpu_rates[name]``."""

        def sample(run: int) -> float:
            wall, cpu = self.measure(directory, size, count, run)
            cpu_rates[self.name].append(cpu)
            return wall

        return sample


# ``raw_encoding`` last: ``ours`` and ``raw`` stay neighbours in every round, as before ADR 0441.
SUBJECTS = (
    _Subject("ours", _ours),
    _Subject("raw", _raw),
    _Subject("stock_es", _stock_es),
    _Subject("raw_encoding", _raw_encoding),
)


def run(results: dict[str, Any]) -> None:
    total = int(os.environ.get("JOBCTRL_BENCH_EVENTS", "20000"))
    repeats = rounds(int(os.environ.get("JOBCTRL_BENCH_REPEATS", "7")))
    with tempfile.TemporaryDirectory(prefix="jobctrl-bench-append-") as tmp:
        directory = Path(tmp)
        for size in BATCH_SIZES:
            count = max(size, total // 5 if size == 1 else total)
            count -= count % size
            # Interleaved rounds (ADR 0230): a round's ratios are paired under the same load.
            cpu_rates: dict[str, list[float]] = {s.name: [] for s in SUBJECTS}
            samples = interleave(
                {s.name: s.subject(directory, size, count, cpu_rates) for s in SUBJECTS}, repeats
            )
            cpu = Samples(cpu_rates)  # index r of every list is round r, as in ``samples``
            for subject in SUBJECTS:
                results[f"append.{subject.name}_per_s.{size}"] = round(samples.median(subject.name), 1)
            results[f"append.ratio_vs_raw.{size}"] = round(samples.ratio("ours", "raw"), 3)
            results[f"append.cpu_ratio_vs_raw.{size}"] = round(cpu.ratio("ours", "raw"), 3)
            if "raw_encoding" in cpu_rates:
                results[f"append.ratio_vs_raw_encoding.{size}"] = round(
                    samples.ratio("ours", "raw_encoding"), 3
                )
                results[f"append.cpu_ratio_vs_raw_encoding.{size}"] = round(
                    cpu.ratio("ours", "raw_encoding"), 3
                )
            if size == 100:
                results["append.ratio_vs_stock_es.100"] = round(samples.ratio("ours", "stock_es"), 3)
                results["append.cpu_ratio_vs_stock_es.100"] = round(cpu.ratio("ours", "stock_es"), 3)
