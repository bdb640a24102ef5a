"""``job_stage_counts`` always equals the ``GROUP BY`` of ``job_stage_states`` (ADR 0345): after every
runner batch, after a rebuild, after the migration that first fills it, and a count changed behind
the engine is found at start-up and rebuilt."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.groupcount import counts_agree, group_select
from jobctrl.projections.healing import verify_projections
from jobctrl.projections.migrate import VERSION_TABLE, current_revision, head_revision
from jobctrl.projections.read_models.stage_counts import job_stage_counts
from jobctrl.projections.read_models.stage_states import STAGE_GROUPS, job_stage_states
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import projection_row_counts
from jobctrl.testing.synthetic import generate, write_log

pytestmark = pytest.mark.both_databases


def _counts(database: Database) -> dict[tuple[str, str, str], int]:
    with database.read() as conn:
        return {(t, st, s): int(n) for t, st, s, n in conn.execute(sa.select(job_stage_counts))}


def _grouped(database: Database) -> dict[tuple[str, str, str], int]:
    with database.read() as conn:
        return {
            (t, st, s): int(n) for t, st, s, n in conn.execute(group_select(STAGE_GROUPS, job_stage_states))
        }


def test_the_counts_follow_the_rows_batch_by_batch_and_a_rebuild_leaves_the_same(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    write_log(database, generate(40, seed=23), corrupt_every=97)
    runner = ProjectionRunner(database, reg, batch_size=37, commit_events=37)  # a commit per batch
    seen: set[tuple[str, str, str]] = set()
    while runner.step():
        counts = _counts(database)
        assert counts == _grouped(database)
        assert all(n > 0 for n in counts.values())  # a group of zero has no row
        seen |= set(counts)
    final = _counts(database)
    # The log moved rows between states: some groups came and went along the way.
    assert len({state for _t, _st, state in seen}) >= 4 and seen - set(final)
    folded = table_digests(database)
    rebuild(database, reg, batch_size=50)
    assert table_digests(database) == folded
    rebuild(database, reg, batch_size=50, cache_capacity=10)  # the cache evicted on the way
    assert table_digests(database) == folded


def test_counts_settled_once_per_row_per_flush_equal_the_rows_with_evictions_mid_transaction(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    # Several batches per transaction and a cache that overflows inside it: each row's unit moves
    # from its group before the transaction to its group at the flush, however often it changed
    # (ADR 0370), and an eviction settles the counts before it drops the rows.
    write_log(database, generate(40, seed=31), corrupt_every=89)
    runner = ProjectionRunner(database, reg, batch_size=29, commit_events=200, cache_capacity=40)
    steps = 0
    while runner.step():
        steps += 1
        assert _counts(database) == _grouped(database)
    assert steps >= 2 and runner.stats.batches > steps  # transactions of several batches
    folded = table_digests(database)
    rebuild(database, reg, batch_size=50)
    assert table_digests(database) == folded


def test_a_count_changed_behind_the_engine_is_found_and_rebuilt(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    write_log(database, generate(20, seed=5))
    ProjectionRunner(database, reg).catch_up()
    folded = table_digests(database)
    with database.write() as conn:
        conn.execute(sa.update(job_stage_counts).values(row_count=job_stage_counts.c.row_count + 1))
    findings = verify_projections(database, OPERATIONS, watermark="operations")
    assert [(f.table, f.reason) for f in findings] == [("job_stage_states", "group_count")]
    assert ProjectionRunner(database, reg).prepare() == ["stage_states"]
    assert table_digests(database) == folded
    # A row moved to another group behind the engine keeps the sum: only the deep check sees it.
    with database.write() as conn:
        conn.execute(
            sa.update(job_stage_states).where(job_stage_states.c.state == "succeeded").values(state="x")
        )
        assert not counts_agree(conn, STAGE_GROUPS, job_stage_states)
    assert verify_projections(database, OPERATIONS, watermark="operations") == []
    deep = verify_projections(database, OPERATIONS, watermark="operations", deep=True)
    # The members' groups (ADR 0445) read the same stage rows: they disagree too.
    assert [(f.table, f.reason) for f in deep] == [
        ("job_stage_states", "group_counts"),
        ("discovery_execution_member_groups", "member_groups"),
    ]


def test_an_upgraded_database_gets_its_counts_from_the_migration_without_a_rebuild(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    write_log(database, generate(30, seed=9))
    ProjectionRunner(database, reg).catch_up()
    folded = table_digests(database)
    with database.write() as conn:  # what a p0012 install holds: the stage rows, no counts
        conn.execute(sa.text("DROP TABLE job_stage_counts"))
        conn.execute(sa.text("DROP TABLE discovery_execution_member_groups"))  # p0014 (ADR 0445)
        conn.execute(
            sa.delete(projection_row_counts).where(projection_row_counts.c.table_name == "job_stage_counts")
        )
        conn.execute(sa.text(f"UPDATE {VERSION_TABLE} SET version_num = 'p0012'"))
    assert ProjectionRunner(database, reg).prepare() == []  # exact counts already: nothing to heal
    assert current_revision(database) == head_revision()
    assert table_digests(database) == folded
    assert _counts(database) == _grouped(database) != {}
