"""Steps of rebuilding: lost and deleted rows, the projection check, a killed rebuild, a full rebuild."""

from __future__ import annotations

import importlib

import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.digest import table_digests
from jobctrl.projections.healing import verify_projections
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import OPERATIONS_WATERMARK, metadata
from jobctrl.projections.status import read_status
from jobctrl.testing.synthetic import generate, write_log

from .world import World


# -- rebuilding -----------------------------------------------------------------------------------
@given(parsers.parse("a generated log of {jobs:d} jobs"))
def generated(world: World, jobs: int) -> None:
    write_log(world.store.db, generate(jobs, seed=5))


@given("the read models are up to date")
def up_to_date(world: World) -> None:
    world.digests = table_digests(world.fold())


@when("the workflow run rows are lost and the runner starts")
def rows_lost(world: World) -> None:
    with world.store.db.write() as conn:
        conn.execute(sa.delete(workflow_run_projections))
    world.healed = ProjectionRunner(world.store.db, world.store.registry).prepare()
    assert world.healed == ["workflow_runs"]


@given("the runner has started and the read models are up to date")
def started_up_to_date(world: World) -> None:
    runner = ProjectionRunner(world.store.db, world.store.registry)
    assert runner.prepare() == []
    runner.catch_up()
    world.digests = table_digests(world.store.db)


@when(parsers.parse('{first:d} "{table}" rows and {second:d} "{other}" rows are deleted'))
def rows_deleted(world: World, first: int, table: str, second: int, other: str) -> None:
    with world.store.db.write() as conn:
        for name, n in ((table, first), (other, second)):
            t = metadata.tables[name]
            keys = list(t.primary_key.columns)
            doomed = conn.execute(sa.select(*keys).order_by(*keys).limit(n)).all()
            assert len(doomed) == n
            for row in doomed:
                conn.execute(sa.delete(t).where(*(k == v for k, v in zip(keys, row, strict=True))))


@then(parsers.parse('the projection check finds "{names}" short of rows'))
def check_finds(world: World, names: str) -> None:
    findings = verify_projections(world.store.db, OPERATIONS, watermark=OPERATIONS_WATERMARK)
    assert sorted({f.projection for f in findings}) == [n.strip() for n in names.split(",")], findings
    assert all(f.reason == "row_count" and (f.found or 0) < (f.expected or 0) for f in findings), findings


@when("the runner starts again")
def starts_again(world: World) -> None:
    world.healed = ProjectionRunner(world.store.db, world.store.registry).prepare()


@then(parsers.parse('the runner rebuilt "{names}"'))
def runner_rebuilt(world: World, names: str) -> None:
    assert sorted(world.healed) == [n.strip() for n in names.split(",")]


@when(parsers.parse('a rebuild of "{name}" is killed after filling its shadow tables'))
def killed_rebuild(world: World, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def killed(*_: object, **__: object) -> None:
        raise KeyboardInterrupt  # the process dies before the swap transaction

    monkeypatch.setattr(importlib.import_module("jobctrl.projections.rebuild"), "copy_table", killed)
    with pytest.raises(KeyboardInterrupt):
        # A cache of one row evicts into the shadows, so they are filled and then copied (a rebuild
        # whose cache holds every row writes the live tables directly, ADR 0370).
        rebuild(world.store.db, world.store.registry, [name], cache_capacity=1)
    monkeypatch.undo()


@then(parsers.parse('projections status lists "{table}" as left over'))
def status_lists(world: World, table: str) -> None:
    assert read_status(world.store.db).leftover_shadows == [table]


@then("projections status lists no leftover tables")
def status_lists_none(world: World) -> None:
    assert read_status(world.store.db).leftover_shadows == []


@when("the read models are rebuilt")
def rebuilt(world: World) -> None:
    rebuild(world.store.db, world.store.registry, batch_size=7)


@then("every read-model table is identical to before")
def identical(world: World) -> None:
    assert table_digests(world.store.db) == world.digests
