"""The "read models equal a clean rebuild" proof used by the kill -9 tests is not vacuous: a fold that
double-applied an event, missed one or altered a row makes the compared digests differ, by table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.projections import OPERATIONS_WATERMARK, ProjectionRunner
from jobctrl.projections.read_models.job_list import job_list_projections
from jobctrl.projections.watermarks import read_watermark, set_watermark
from jobctrl.testing.runtime.api_seed import discover_job, project, score_job
from jobctrl.testing.runtime.read_models import copy_log, differing_read_models

pytestmark = pytest.mark.both_databases  # the kept read models on either; the clean rebuild in SQLite


@pytest.fixture
def store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    for n in range(3):
        discover_job(store, f"job-{n}")
        score_job(store, f"job-{n}", float(40 + n))
    project(database)
    return store


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Database]:
    db = open_database(f"sqlite:///{tmp_path / 'fresh.db'}")
    yield db
    db.dispose()


def test_read_models_kept_by_the_runner_equal_a_clean_rebuild(
    database: Database, store: EventStore, fresh: Database
) -> None:
    assert differing_read_models(database, fresh) == []
    with fresh.read() as conn:  # the rebuild happened in the fresh database, from the copied log
        assert conn.execute(sa.select(sa.func.count()).select_from(job_list_projections)).scalar_one() == 3
    assert EventStore(fresh, registry()).head_position() == store.head_position()


def test_a_double_applied_event_is_caught(database: Database, store: EventStore, fresh: Database) -> None:
    with database.write() as conn:  # the runner re-folds the last two events (counters count twice)
        set_watermark(conn, OPERATIONS_WATERMARK, read_watermark(conn, OPERATIONS_WATERMARK) - 2)
    runner = ProjectionRunner(database, registry())
    while runner.step():
        pass
    assert "dashboard_projections" in differing_read_models(database, fresh)


def test_a_missed_event_is_caught(database: Database, store: EventStore, fresh: Database) -> None:
    discover_job(store, "job-missed")
    with database.write() as conn:  # the watermark passes the event without folding it
        set_watermark(conn, OPERATIONS_WATERMARK, store.head_position())
    assert {"job_list_projections", "dashboard_projections"} <= set(differing_read_models(database, fresh))


def test_an_altered_row_is_caught(database: Database, store: EventStore, fresh: Database) -> None:
    with database.write() as conn:
        conn.execute(
            sa.update(job_list_projections)
            .where(job_list_projections.c.job_id == "job-1")
            .values(fit_score=job_list_projections.c.fit_score + 1)
        )
    assert differing_read_models(database, fresh) == ["job_list_projections"]


def test_read_models_behind_the_head_are_not_compared(
    database: Database, store: EventStore, fresh: Database
) -> None:
    discover_job(store, "job-late")  # appended, not folded yet
    with pytest.raises(AssertionError, match="not at the head"):
        differing_read_models(database, fresh)
    assert copy_log(database, fresh) == len(store.read_all(limit=1_000))
