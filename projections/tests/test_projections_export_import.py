"""``export`` then ``import`` into another database rebuilds every read model identically (the
envelope carries the event id and the metadata the folds read: workflow, run, attempt)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.digest import table_digests
from jobctrl.projections.importing import export_file, import_file
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.testing.plugin import fresh_url, opened
from jobctrl.testing.synthetic import generate, write_log

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]


@pytest.fixture
def elsewhere(db_kind: str, tmp_path: Path) -> Iterator[Database]:
    """A second, empty database of the same kind."""
    with fresh_url(db_kind, tmp_path, "elsewhere") as url, opened(url) as db:
        yield db


def test_an_exported_log_imported_elsewhere_rebuilds_every_table_identically(
    database: Database, store: EventStore, reg: EventRegistry, elsewhere: Database, tmp_path: Path
) -> None:
    written = write_log(database, generate(30, seed=17))
    ProjectionRunner(database, reg).catch_up()
    original = table_digests(database)
    file = tmp_path / "log.jsonl"
    assert export_file(store, file) == written

    target = EventStore(elsewhere, reg)
    target.create_schema()
    report = import_file(target, file)
    assert (report.imported, report.already_present, report.rejected) == (written, 0, [])
    ProjectionRunner(elsewhere, reg).catch_up()
    assert table_digests(elsewhere) == original  # every table, job_stage_states' owners included
    assert [e.event_id for e in target.read_all(limit=written)] == [
        e.event_id for e in store.read_all(limit=written)
    ]
    assert import_file(target, file).already_present == written  # and nothing twice
