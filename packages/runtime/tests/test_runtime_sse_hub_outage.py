"""While storage is gone the SSE hub retries every tick but logs the outage once (with its traceback),
and once more, as a warning, when it reads again: one record per change of state, not one every
250 ms.  The outage is real: the SQLite file and its WAL are moved away under the running hub (the
store fails closed, ADR 0102), then moved back."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.runtime.api.hub import EventHub

pytestmark = pytest.mark.asyncio
SUFFIXES = ("", "-wal", "-shm")


async def _until(condition: Callable[[], bool], deadline_s: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline_s
    while not condition():
        assert loop.time() < end, "condition not met before the deadline"
        await asyncio.sleep(0.01)


async def test_an_outage_is_logged_once_when_it_starts_and_once_when_it_ends(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_file = tmp_path / "jobctrl.db"
    db = open_database(f"sqlite:///{db_file}")
    store = EventStore(db, registry())
    store.create_schema()
    hub = EventHub(store, poll_interval=0.01)
    caplog.set_level(logging.DEBUG, logger="jobctrl.runtime.api.hub")
    await hub.start()
    try:
        await _until(lambda: hub.stats.ticks >= 2)
        for suffix in SUFFIXES:
            if Path(f"{db_file}{suffix}").exists():
                os.rename(f"{db_file}{suffix}", f"{db_file}{suffix}.away")
        await _until(lambda: hub.stats.failed_ticks >= 20)  # 20 failed reads ...
        for suffix in SUFFIXES:
            if Path(f"{db_file}{suffix}.away").exists():
                os.rename(f"{db_file}{suffix}.away", f"{db_file}{suffix}")
        failed = hub.stats.failed_ticks
        await _until(lambda: any(r.levelno == logging.WARNING for r in caplog.records))
    finally:
        await hub.stop()
        db.dispose()
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.levelname for r in loud] == ["ERROR", "WARNING"]  # ... one error, one recovery
    assert loud[0].exc_info is not None and "cannot read the log" in loud[0].getMessage()
    assert "again after" in loud[1].getMessage()
    assert hub.stats.outages == 1 and hub.stats.failed_ticks >= failed >= 20
    quiet = [r for r in caplog.records if r.levelno == logging.DEBUG and "still failing" in r.getMessage()]
    assert len(quiet) == hub.stats.failed_ticks - 1
