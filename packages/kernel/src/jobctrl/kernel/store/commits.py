"""Wake-ups for readers of the log the moment an append commits, instead of at their next poll.

Two sources, one callback shape (``callback(position)``, the last committed position or 0 when
unknown):

* **In this process**: every ``EventStore`` over the same log (same database URL and notify
  channel, whichever ``Database`` object opened it) publishes on a process-wide ``CommitSignals``
  after its transaction committed.  Listeners run on the writer's thread and must only hand the
  wake-up over (e.g. ``loop.call_soon_threadsafe``); one that raises is logged and never fails the
  writer, whose transaction has already committed.
* **Other processes, on PostgreSQL**: the store's ``pg_notify`` commits with the append;
  ``listen_for_commits`` holds one ``LISTEN`` connection and calls back on every notification.

On SQLite there is no cross-process notification: readers keep their poll as the fallback for
writers in other processes (ADR 0235).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import URL

log = logging.getLogger(__name__)

CommitCallback = Callable[[int], None]


class CommitSignals:
    """Process-wide listeners per log key; publishing copies nothing and takes no lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, tuple[CommitCallback, ...]] = {}

    def subscribe(self, key: str, callback: CommitCallback) -> Callable[[], None]:
        """Call ``callback`` after every commit on ``key``; returns the unsubscribe function."""
        with self._lock:
            self._listeners[key] = (*self._listeners.get(key, ()), callback)

        def unsubscribe() -> None:
            with self._lock:
                rest = tuple(c for c in self._listeners.get(key, ()) if c is not callback)
                if rest:
                    self._listeners[key] = rest
                else:
                    self._listeners.pop(key, None)

        return unsubscribe

    def publish(self, key: str, position: int) -> None:
        """Call every listener of ``key``; position 0 (nothing was appended) calls nobody."""
        if not position:
            return
        for callback in self._listeners.get(key, ()):  # a tuple swapped whole: safe without the lock
            try:
                callback(position)
            except Exception:  # a reader's wake-up never fails a committed write
                log.exception("commit listener failed")


SIGNALS = CommitSignals()


def log_key(url: URL, channel: str) -> str:
    """One key per log: the database (password left out) and the store's notify channel."""
    return f"{url.render_as_string(hide_password=True)}#{channel}"


def libpq_conninfo(url: URL) -> str:
    """The SQLAlchemy URL as a libpq URL (``postgresql+psycopg://`` -> ``postgresql://``)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def listen_for_commits(
    url: URL, channel: str, callback: CommitCallback, *, retry_s: float = 1.0
) -> None:
    """``LISTEN channel`` on PostgreSQL and call back on every notification, until cancelled.

    A lost connection is reopened after ``retry_s`` (and the callback called once with 0, so the
    reader catches up on whatever committed while it was not listening).
    """
    first = True
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(libpq_conninfo(url), autocommit=True) as conn:
                await conn.execute(f'LISTEN "{channel}"')
                if not first:
                    callback(0)
                first = False
                async for note in conn.notifies():
                    position = int(note.payload) if note.payload.isdigit() else 0
                    callback(position)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the poll still runs; try again shortly
            log.warning("LISTEN %s failed (%s); retrying in %.1fs", channel, exc, retry_s)
            await asyncio.sleep(retry_s)
