"""Reliability: 8 writer processes append at once while a follower reads the log (issue #17).

Goals: no skipped position (the follower never sees a row below one it has seen, and positions are
contiguous), no duplicate, no lost write, no "database is locked" reaching a caller.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.testing.figures import Figures

pytestmark = [pytest.mark.both_databases, pytest.mark.integration]
WRITERS, APPENDS = 8, 20


def test_eight_writer_processes_and_a_follower(
    database: Database, db_url: str, db_kind: str, figures: Figures
) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    seen: list[int] = []
    skipped: list[tuple[int, int]] = []
    done = threading.Event()

    def follow() -> None:
        high = 0
        while True:
            finished = done.is_set()
            for row in store.read_all(after=high, limit=500):
                if row.position != high + 1:
                    skipped.append((high, row.position))
                high = row.position
                seen.append(row.position)
            if finished:
                return
            time.sleep(0.01)  # a polling follower; the assertions below do not depend on its pace

    follower = threading.Thread(target=follow)
    follower.start()
    writers = [
        subprocess.Popen(
            [sys.executable, "-m", "jobctrl.testing.reliability", db_url, str(w), str(APPENDS)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    errors: list[str] = []
    try:
        for proc in writers:
            out, _ = proc.communicate(timeout=240)
            assert proc.returncode == 0, out
            errors.extend(json.loads(out))
    finally:
        for proc in writers:
            if proc.poll() is None:
                proc.kill()
        done.set()
        follower.join(60)

    rows = store.read_all(limit=WRITERS * APPENDS + 10)
    ids = [r.event_id for r in rows]
    expected = {f"w{w}-{i}" for w in range(WRITERS) for i in range(APPENDS)}
    locked = sum("database is locked" in e for e in errors)
    lost = len(expected - set(ids))
    duplicated = len(ids) - len(set(ids))
    where = f"{WRITERS} writers x {APPENDS} appends, {db_kind}"
    figures.record(f"skipped positions seen by a follower ({where})", len(skipped), goal="0", met=not skipped)
    figures.record(f"duplicated events ({where})", duplicated, goal="0", met=duplicated == 0)
    figures.record(f"lost writes ({where})", lost, goal="0", met=lost == 0)
    figures.record(f'"database is locked" reaching a caller ({where})', locked, goal="0", met=locked == 0)
    assert errors == []
    assert skipped == [] and lost == 0 and duplicated == 0
    assert seen == [r.position for r in rows] == list(range(1, WRITERS * APPENDS + 1))
