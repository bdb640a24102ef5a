"""The append path's kept SQLite connection (ADR 0231): one connection serves every append of the
process, a refused append leaves it usable, and lost storage still fails closed on every append."""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from jobctrl.domain_types import registry
from jobctrl.kernel.errors import StorageUnavailable
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import ConcurrencyConflict, EventStore, open_database
from jobctrl.testing.discovered import discovered

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _event(n: int) -> NewEvent:
    return discovered(f"job-{n}", n, source="greenhouse:acme", at=NOW)


def test_appends_from_many_threads_share_one_kept_connection_and_a_refusal_keeps_it(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        store = EventStore(db, registry())
        store.create_schema()
        checked_out = db.engine.pool.checkedout()  # type: ignore[attr-defined]
        errors: list[BaseException] = []

        def writer(t: int) -> None:
            try:
                for i in range(10):
                    store.append(f"s-{t}-{i}", 0, [_event(t * 100 + i)])
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert errors == []
        assert store.head_position() == 40
        # The appends held no pooled connection (the kept one is detached from the pool).
        assert db.engine.pool.checkedout() == checked_out  # type: ignore[attr-defined]
        with pytest.raises(ConcurrencyConflict):
            store.append("s-0-0", 0, [_event(999)])
        assert store.append("s-0-0", 1, [_event(998)]).positions == (41,)
        db.dispose()
        assert store.append("s-0-0", 2, [_event(997)]).positions == (42,)  # reopened after dispose
    finally:
        db.dispose()


def test_a_replaced_file_fails_closed_on_the_kept_connection_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    db = open_database(f"sqlite:///{path}")
    try:
        store = EventStore(db, registry())
        store.create_schema()
        store.append("s", 0, [_event(1)])  # the kept connection is open on the original file
        moved = tmp_path / "moved.db"
        os.replace(path, moved)
        path.write_bytes(moved.read_bytes())  # same content, another file
        with pytest.raises(StorageUnavailable) as caught:
            store.append("s", 1, [_event(2)])
        assert caught.value.reason == "replaced"
        os.replace(moved, path)  # the original back: appends go on, and nothing was written meanwhile
        assert store.append("s", 1, [_event(3)]).positions == (2,)
    finally:
        db.dispose()


def test_pooled_writes_and_appends_of_one_process_take_turns_instead_of_meeting_sqlites_lock(
    tmp_path: Path,
) -> None:
    # ADR 0362: with SQLite's busy handler switched off, two writers of one process that met on
    # SQLite's write lock would fail at once with "database is locked"; in turn, none does.
    db = open_database(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        store = EventStore(db, registry())
        store.create_schema()
        with db.write() as conn:
            conn.exec_driver_sql("CREATE TABLE counter (n INTEGER NOT NULL)")
            conn.exec_driver_sql("INSERT INTO counter VALUES (0)")
        db.dispose()  # every connection from here on is opened with the listener below

        @event.listens_for(db.engine, "connect")
        def no_busy_wait(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute("PRAGMA busy_timeout=0")

        errors: list[BaseException] = []

        def pooled(_: int) -> None:
            for _i in range(60):
                with db.write() as conn:
                    conn.exec_driver_sql("UPDATE counter SET n = n + 1")

        def appends(t: int) -> None:
            for i in range(60):
                store.append(f"s-{t}-{i}", 0, [_event(t * 100 + i)])

        def run(work: Any, t: int) -> None:
            try:
                work(t)
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=run, args=(w, t)) for t, w in enumerate([pooled, appends] * 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert errors == []
        assert store.head_position() == 120
        with db.read() as conn:
            assert conn.exec_driver_sql("SELECT n FROM counter").scalar() == 120
    finally:
        db.dispose()
