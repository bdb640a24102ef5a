"""Waiting for new events: a timed poll on SQLite, ``LISTEN job_events`` on PostgreSQL.

A notification only wakes the runner early; the runner always re-reads after its watermark, so a
lost notification costs at most one poll interval and never an event.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

import psycopg

from jobctrl.kernel.store.database import Database
from jobctrl.kernel.store.event_store import NOTIFY_CHANNEL

log = logging.getLogger(__name__)


class Waiter(Protocol):
    def wait(self, timeout: float, stop: threading.Event) -> None: ...

    def close(self) -> None: ...


class PollWaiter:
    def wait(self, timeout: float, stop: threading.Event) -> None:
        stop.wait(timeout)

    def close(self) -> None:
        return None


class ListenWaiter:
    """A dedicated autocommit psycopg connection listening on the store's channel."""

    def __init__(self, conninfo: str) -> None:
        self._conn: Any = psycopg.connect(conninfo, autocommit=True)
        self._conn.execute(f"LISTEN {NOTIFY_CHANNEL}")

    def wait(self, timeout: float, stop: threading.Event) -> None:
        # Wake on the first notification, or after ``timeout`` (the polling fallback).
        for _ in self._conn.notifies(timeout=timeout, stop_after=1):
            break
        del stop

    def close(self) -> None:
        self._conn.close()


def waiter_for(db: Database) -> Waiter:
    if not db.is_postgres:
        return PollWaiter()
    url = db.engine.url.set(drivername="postgresql")
    try:
        return ListenWaiter(url.render_as_string(hide_password=False))
    except Exception as exc:  # any connection problem: fall back to polling, never stop folding
        log.warning("LISTEN %s unavailable (%s); polling instead", NOTIFY_CHANNEL, type(exc).__name__)
        return PollWaiter()
