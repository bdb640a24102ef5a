"""The runner: rows and watermark in one transaction, skips reported, re-delivery inert, follow loop."""

from __future__ import annotations

import threading
import time
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from jobctrl.kernel.errors import StorageUnavailable
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration.events import StageCompleted, StageStarted, WorkflowStarted
from jobctrl.projections import runner as runner_module
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.model import Fold, Projection, ReadModelTable
from jobctrl.projections.read_models import stage_states
from jobctrl.projections.read_models.dashboard import dashboard_projections
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import projection_row_counts
from jobctrl.projections.sqlutil import reset_row_counts
from jobctrl.projections.status import read_status
from jobctrl.projections.watermarks import read_watermark, set_watermark
from jobctrl.testing.synthetic import generate, write_log

from .conftest import Append

pytestmark = pytest.mark.both_databases


def _started(job: str) -> StageStarted:
    return StageStarted(job_id=job, stage="enrich", attempt_number=1, started_at="2026-03-01T09:00:00.000Z")


def test_a_batch_commits_rows_and_watermark_together(
    database: Database, reg: EventRegistry, append: Append
) -> None:
    append([_started("j1"), _started("j2")], workflow_id="wf-1", run_id="run-1")
    runner = ProjectionRunner(database, reg)
    assert runner.catch_up() == 2
    with database.read() as conn:
        assert read_watermark(conn, "operations") == 2
        rows = conn.execute(sa.select(job_stage_states).order_by(job_stage_states.c.job_id)).all()
    assert [(r.job_id, r.state, r.owner_run_id) for r in rows] == [
        ("j1", "running", "run-1"),
        ("j2", "running", "run-1"),
    ]


class _Never(msgspec.Struct, frozen=True):
    job_id: str


# A read model whose table was never created: its upsert fails after the stage rows were written.
_BROKEN = ReadModelTable(
    sa.Table("never_created", sa.MetaData(), sa.Column("job_id", sa.String, primary_key=True)), _Never
)
BROKEN = Projection(
    "broken",
    (_BROKEN,),
    (Fold(StageStarted, _BROKEN, lambda e, i: e.job_id, lambda r, e, i: _Never(e.job_id)),),
)


def test_a_failing_batch_leaves_neither_rows_nor_watermark(
    database: Database, reg: EventRegistry, append: Append
) -> None:
    append([_started("j1")])
    runner = ProjectionRunner(database, reg, [stage_states.PROJECTION, BROKEN])
    # The driver's "no such table" reaches the caller as the store's typed failure (fail closed).
    with pytest.raises(StorageUnavailable, match="lacks a table"):
        runner.step()
    with database.read() as conn:
        assert read_watermark(conn, "operations") == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(job_stage_states)).scalar_one() == 0


def test_a_stale_batch_is_dropped_when_the_watermark_moved(
    database: Database, reg: EventRegistry, append: Append, monkeypatch: pytest.MonkeyPatch
) -> None:
    append([_started("j1")])
    first, second = ProjectionRunner(database, reg), ProjectionRunner(database, reg)
    first.prepare()
    assert second.step() == 1
    before = table_digests(database)
    # ``first`` read watermark 0; it must not fold the same event again on top of ``second``'s work.
    monkeypatch.setattr(runner_module, "read_watermark", lambda conn, name: 0)
    assert first.step() == 0
    monkeypatch.undo()
    assert first.stats.conflicts == 1
    assert table_digests(database) == before
    assert second.step() == 0  # nothing after the watermark: re-delivery cannot happen


def test_invalid_events_are_skipped_counted_and_reported(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    written = write_log(database, generate(30, seed=3), corrupt_every=50, extra_key_every=7)
    runner = ProjectionRunner(database, reg, batch_size=97)
    assert runner.catch_up() == written
    status = read_status(database)
    corrupt = written // 50
    assert status.skipped == corrupt == runner.stats.skipped
    assert status.watermark == status.head == written and status.lag == 0
    assert all(s.position % 50 == 0 for s in status.recent_skipped)
    assert {s.event_type for s in status.recent_skipped} & {"NoSuchEvent"}
    with database.read() as conn:
        dumped = "".join(str(tuple(r)) for r in conn.execute(sa.select(job_stage_states)))
    assert "notInSchema" not in dumped and "dropped" not in dumped


def test_follow_picks_up_new_events_and_stops_gracefully(
    database: Database, reg: EventRegistry, append: Append
) -> None:
    runner = ProjectionRunner(database, reg, poll_interval=0.05)
    runner.prepare()
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,))
    thread.start()
    try:
        append(
            [
                WorkflowStarted(
                    workflow_id="wf",
                    workflow_type="Discover",
                    status="in_progress",
                    input_summary={},
                    started_at=None,
                    temporal_run_id="r1",
                )
            ]
        )
        append(
            [
                _started("j9"),
                StageCompleted(
                    job_id="j9", stage="enrich", finished_at="2026-03-01T09:00:01.000Z", duration_ms=1000
                ),
            ],
            stream="job-j9",
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with database.read() as conn:
                if read_watermark(conn, "operations") == 3:
                    break
            time.sleep(0.02)
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()
    with database.read() as conn:
        assert read_watermark(conn, "operations") == 3
        state = conn.execute(
            sa.select(job_stage_states.c.state).where(job_stage_states.c.job_id == "j9")
        ).scalar_one()
    assert state == "succeeded"


def test_memory_is_bounded_by_the_batch(database: Database, reg: EventRegistry, store: EventStore) -> None:
    write_log(database, generate(40, seed=5))
    runner = ProjectionRunner(database, reg, batch_size=25)
    runner.catch_up()
    with database.read() as conn:
        head = conn.execute(sa.select(sa.func.max(job_events.c.position))).scalar_one()
    assert runner.stats.events == head
    assert runner.stats.batches == -(-head // 25)  # every read is at most one batch


def _row_counts(database: Database) -> dict[str, tuple[int, int]]:
    """Per table: (the engine's row counter, the table's real row count)."""
    counts = projection_row_counts
    with database.read() as conn:
        counters = {n: c for n, c in conn.execute(sa.select(counts.c.table_name, counts.c.row_count))}
        return {
            t.name: (
                counters[t.name],
                conn.execute(sa.select(sa.func.count()).select_from(t.table)).scalar_one(),
            )
            for p in OPERATIONS
            for t in p.tables
        }


def test_a_catch_up_transaction_folds_several_batches_like_one_per_batch(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    written = write_log(database, generate(40, seed=5))
    runner = ProjectionRunner(database, reg, batch_size=25, commit_events=100)
    runner.prepare()
    steps = []
    while n := runner.step():
        steps.append(n)
    # Each transaction folded up to four reads of 25 (ADR 0350); the last one what was left.
    assert steps == [100] * (written // 100) + ([written % 100] if written % 100 else [])
    assert runner.stats.batches == -(-written // 25)
    assert all(counter == rows for counter, rows in _row_counts(database).values())
    several = table_digests(database)
    rebuild(database, reg, batch_size=25)
    assert table_digests(database) == several
    tables = [t.table for p in OPERATIONS for t in p.tables]
    with database.write() as conn:
        for table in tables:
            conn.execute(sa.delete(table))
        reset_row_counts(conn, tables)
        set_watermark(conn, "operations", 0)
    one_per_batch = ProjectionRunner(database, reg, batch_size=25, commit_events=25)
    assert one_per_batch.catch_up() == written
    assert one_per_batch.stats.batches == runner.stats.batches
    assert table_digests(database) == several


def test_a_failure_in_a_later_batch_leaves_nothing_of_the_earlier_ones(
    database: Database, reg: EventRegistry, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_log(database, generate(10, seed=5))
    runner = ProjectionRunner(database, reg, batch_size=20, commit_events=100)
    runner.prepare()
    fold, calls = runner.engine.fold, []

    def failing_second(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the second batch fails")
        return fold(*args, **kwargs)

    monkeypatch.setattr(runner.engine, "fold", failing_second)
    with pytest.raises(RuntimeError, match="second batch"):
        runner.step()
    with database.read() as conn:
        assert read_watermark(conn, "operations") == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(job_stage_states)).scalar_one() == 0
    monkeypatch.undo()
    assert runner.step() == 100  # the same transaction, now whole


def test_rows_kept_between_catch_up_transactions_yield_to_a_partial_rebuild(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    """A catch-up transaction starts from the rows the previous one committed (ADR 0400), unless a
    rebuild swap replaced rows meanwhile, even under an unchanged watermark (a partial rebuild)."""
    written = write_log(database, generate(40, seed=5))
    ProjectionRunner(database, reg, batch_size=25, commit_events=100).step()
    runner = ProjectionRunner(database, reg, batch_size=25, commit_events=100)
    runner.prepare()  # before the damage, so start-up healing does not repair it
    with database.write() as conn:
        # Damage the live counters (every later batch moves them): the runner's next transaction
        # loads them as they are now.
        conn.execute(sa.update(dashboard_projections).values(value=dashboard_projections.c.value + 50))
    assert runner.step() == 100  # folded on the damaged rows, which it keeps for the next one
    with database.read() as conn:
        position = read_watermark(conn, "operations")
    result = rebuild(database, reg, ["dashboard"])  # repairs them under the same watermark
    assert result.position == position
    assert runner.catch_up() == written - 200
    folded = table_digests(database)
    rebuild(database, reg, batch_size=25)
    assert table_digests(database) == folded  # no damaged row came back from the runner's memory


def test_a_catch_up_from_empty_tables_looks_nothing_up(
    database: Database, reg: EventRegistry, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From empty tables a catch-up needs no row loads: every row it needs, it made (ADR 0400)."""
    written = write_log(database, generate(40, seed=5))
    runner = ProjectionRunner(database, reg, batch_size=25, commit_events=100)
    runner.prepare()
    loads: list[int] = []
    load = runner.engine._load

    def counted(*args: Any, **kwargs: Any) -> None:
        loads.append(1)
        load(*args, **kwargs)

    monkeypatch.setattr(runner.engine, "_load", counted)
    assert runner.catch_up() == written
    assert runner.stats.batches > 4 and loads == []  # several transactions, not one row loaded
    folded = table_digests(database)
    rebuild(database, reg, batch_size=25)
    assert table_digests(database) == folded
