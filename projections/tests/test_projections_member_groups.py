"""``discovery_execution_member_groups`` always equals the ``GROUP BY`` of the members joined to
their stage rows (ADR 0445): after every runner transaction (one batch or several, with evictions),
after a full and a partial rebuild, after the migration that first fills it; a count changed behind
the engine is found at start-up (or by ``--verify``) and rebuilt."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.healing import heal, verify_projections
from jobctrl.projections.migrate import VERSION_TABLE, current_revision, head_revision
from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.read_models.member_groups import (
    discovery_execution_member_groups,
    member_group_select,
)
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import projection_row_counts
from jobctrl.testing.synthetic import generate, write_log

pytestmark = pytest.mark.both_databases
Groups = dict[tuple[str, ...], int]


def _kept(database: Database) -> Groups:
    with database.read() as conn:
        return {tuple(r[:-1]): int(r[-1]) for r in conn.execute(sa.select(discovery_execution_member_groups))}


def _grouped(database: Database) -> Groups:
    query = member_group_select(discovery_execution_jobs, job_stage_states)
    with database.read() as conn:
        return {tuple(r[:-1]): int(r[-1]) for r in conn.execute(query)}


@pytest.mark.parametrize(
    ("batch_size", "commit_events", "cache_capacity"),
    [
        (37, 37, 300_000),  # a commit per batch
        (29, 200, 40),  # several batches per commit, with evictions
    ],
)
def test_the_groups_follow_the_members_and_stage_rows_and_a_rebuild_leaves_the_same(
    database: Database,
    reg: EventRegistry,
    store: EventStore,
    batch_size: int,
    commit_events: int,
    cache_capacity: int,
) -> None:
    write_log(database, generate(40, seed=23), corrupt_every=97)
    runner = ProjectionRunner(
        database, reg, batch_size=batch_size, commit_events=commit_events, cache_capacity=cache_capacity
    )
    seen: set[tuple[str, ...]] = set()
    steps = 0
    while runner.step():
        steps += 1
        kept = _kept(database)
        assert kept == _grouped(database)
        assert all(n > 0 for n in kept.values())  # a group of zero has no row
        seen |= set(kept)
    final = _kept(database)
    assert final and steps >= 2
    # Members moved between groups as their plans and stage rows changed.
    assert len({g[6] for g in seen}) >= 3 and seen - set(final)
    folded = table_digests(database)
    rebuild(database, reg, batch_size=50)
    assert table_digests(database) == folded
    rebuild(database, reg, batch_size=50, cache_capacity=10)  # the cache evicted on the way
    assert table_digests(database) == folded
    for name in ("stage_states", "discovery_executions"):  # either source rebuilt alone
        rebuild(database, reg, [name], batch_size=50, cache_capacity=10)
        assert table_digests(database) == folded
    assert verify_projections(database, OPERATIONS, watermark="operations", deep=True) == []


def test_a_group_count_changed_behind_the_engine_is_found_and_rebuilt(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    write_log(database, generate(20, seed=5))
    ProjectionRunner(database, reg).catch_up()
    folded = table_digests(database)
    g = discovery_execution_member_groups.c
    with database.write() as conn:
        conn.execute(sa.update(discovery_execution_member_groups).values(member_count=g.member_count + 1))
    findings = verify_projections(database, OPERATIONS, watermark="operations")
    assert [(f.table, f.reason) for f in findings] == [("discovery_execution_member_groups", "member_count")]
    assert ProjectionRunner(database, reg).prepare() == ["discovery_executions"]
    assert table_digests(database) == folded
    # A unit moved to another group keeps the sum: only the deep check sees it.
    with database.write() as conn:
        first = conn.execute(sa.select(discovery_execution_member_groups).limit(1)).one()
        conn.execute(
            sa.update(discovery_execution_member_groups)
            .where(
                *(
                    c == v
                    for c, v in zip(
                        discovery_execution_member_groups.primary_key.columns, first, strict=False
                    )
                )
            )
            .values(state_cover="moved")
        )
    assert verify_projections(database, OPERATIONS, watermark="operations") == []
    deep = verify_projections(database, OPERATIONS, watermark="operations", deep=True)
    assert [(f.table, f.reason) for f in deep] == [("discovery_execution_member_groups", "member_groups")]
    assert heal(database, reg, OPERATIONS, watermark="operations", deep=True) == ["discovery_executions"]
    assert table_digests(database) == folded


def test_an_upgraded_database_gets_its_groups_from_the_migration_without_a_rebuild(
    database: Database, reg: EventRegistry, store: EventStore
) -> None:
    write_log(database, generate(30, seed=9))
    ProjectionRunner(database, reg).catch_up()
    folded = table_digests(database)
    with database.write() as conn:  # what a p0013 install holds: members and stage rows, no groups
        conn.execute(sa.text("DROP TABLE discovery_execution_member_groups"))
        conn.execute(
            sa.delete(projection_row_counts).where(
                projection_row_counts.c.table_name == "discovery_execution_member_groups"
            )
        )
        conn.execute(sa.text(f"UPDATE {VERSION_TABLE} SET version_num = 'p0013'"))
    assert ProjectionRunner(database, reg).prepare() == []  # exact groups already: nothing to heal
    assert current_revision(database) == head_revision()
    assert table_digests(database) == folded
    assert _kept(database) == _grouped(database) != {}
