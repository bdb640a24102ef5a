"""A fresh row cache (none of its rows written yet) writes its rows whole at its first flush and
tracks changes from then on (ADR 0415)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Connection

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.digest import table_digests
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.tableio import TableIO
from jobctrl.testing.synthetic import generate, write_log

pytestmark = pytest.mark.both_databases


def test_a_catch_up_from_empty_tables_writes_only_changed_rows_after_its_first_commit(
    database: Database, reg: EventRegistry, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first transaction's cache is fresh (every table was empty): it writes all its rows.  The
    next transactions start from the rows it kept (ADR 0400) and write only the rows they changed:
    a stage row written by a later transaction was moved by one of that transaction's events."""
    written = write_log(database, generate(40, seed=7))
    runner = ProjectionRunner(database, reg, batch_size=25, commit_events=100)
    runner.prepare()
    stage_column = [c.name for c in job_stage_states.columns].index("last_event_position")
    stage_writes: list[list[int]] = []  # per upsert of stage rows: their last_event_position
    upsert = TableIO.upsert

    def recorded(io: TableIO, conn: Connection, rows: list[tuple[Any, ...]]) -> None:
        if io.table.name == job_stage_states.name:
            stage_writes.append([row[stage_column] for row in rows])
        upsert(io, conn, rows)

    monkeypatch.setattr(TableIO, "upsert", recorded)
    floors: list[int] = []  # the watermark each transaction started from
    position = 0
    while True:
        floors.append(position)
        if runner.step() == 0:
            break
        position += runner.commit_events
    assert runner.stats.events == written and len(stage_writes) >= 3  # several transactions wrote
    first, *later = stage_writes
    assert len(first) == len(set(first)) > 0  # the fresh flush wrote each row it made, once
    for floor, positions in zip(floors[1:], later, strict=False):
        assert min(positions) > floor, "a later transaction rewrote a row it did not change"
    folded = table_digests(database)
    rebuild(database, reg, batch_size=25)
    assert table_digests(database) == folded


def test_a_rebuild_from_a_fresh_cache_equals_one_that_evicted_on_the_way(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    """A fresh cache's whole write (into the emptied live tables) and the tracked writes of a cache
    evicted into the shadows leave the same rows."""
    write_log(database, generate(40, seed=13), corrupt_every=53)
    whole = rebuild(database, reg, batch_size=30)
    fresh = table_digests(database)
    evicted = rebuild(database, reg, batch_size=30, cache_capacity=25)
    assert table_digests(database) == fresh
    assert whole.skipped == evicted.skipped > 0
