"""The watermark's compare-and-swap, guarded twice: the statement itself, and runners racing over one
log on their own connections (each batch folded exactly once, tables equal to a rebuild)."""

from __future__ import annotations

import threading

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.registry import EventRegistry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.projections.digest import table_digests
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.watermarks import advance_watermark, ensure_watermark, read_watermark
from jobctrl.testing.synthetic import generate, write_log

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]


def test_the_watermark_moves_only_from_the_position_the_writer_read(database: Database) -> None:
    ProjectionRunner(database, registry()).prepare()
    with database.write() as conn:
        ensure_watermark(conn, "cas-test")
        assert advance_watermark(conn, "cas-test", 0, 5) is True
        assert advance_watermark(conn, "cas-test", 0, 7) is False  # a stale reader: refused
        assert read_watermark(conn, "cas-test") == 5
        assert advance_watermark(conn, "cas-test", 5, 7) is True
        assert advance_watermark(conn, "no-such-watermark", 0, 1) is False
        assert read_watermark(conn, "cas-test") == 7


def test_racing_runners_fold_every_event_exactly_once(
    database: Database, db_url: str, reg: EventRegistry, store: EventStore
) -> None:
    written = write_log(database, generate(24, seed=11))
    ProjectionRunner(database, reg).prepare()
    runners: list[ProjectionRunner] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def race() -> None:
        db = open_database(db_url)
        try:
            runner = ProjectionRunner(db, reg, batch_size=17)
            runners.append(runner)
            start.wait(10)
            runner.catch_up()
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            db.dispose()

    threads = [threading.Thread(target=race) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == [] and not any(t.is_alive() for t in threads)
    # Every log row was folded by exactly one runner: none twice, none lost.
    assert sum(r.stats.events for r in runners) == written
    folded = table_digests(database)
    rebuild(database, reg, batch_size=50)
    assert table_digests(database) == folded
