"""The append path's own SQLite connection: kept open between appends, used by one thread at a time.

Checking a pooled connection out and back in (fairy, weakref finalizer, reset-on-return rollback,
queue lock) was an eighth of a one-event append (ADR 0231).  On SQLite one writer holds the database
anyway (``BEGIN IMMEDIATE``), so the store keeps a single driver connection for its appends, detached
from the pool, behind a lock: writers of this process queue on the lock instead of on SQLite's busy
handler.  What every transaction still does is unchanged: ``Database.verify`` (the file is the one
this process opened, ADR 0102) runs before the lock is taken, ``BEGIN IMMEDIATE`` opens the
transaction, and any error rolls it back.  A storage failure (or a failed rollback) closes the
connection, so the next append opens a fresh one; ``Database.dispose`` closes it.  PostgreSQL
keeps the pool (its pre-ping replaces a connection the server dropped while idle).

``Database.write`` (the pooled write transactions: aggregate saves, the spend ledger, read-model
rows) takes the same lock through ``turn`` (ADR 0362), so every writer of this process queues in
one place; SQLite's busy handler, which sleeps 1 … 100 ms between retries whatever the holder does,
is left to writers of other processes.  The lock is re-entrant (a nested write on one thread meets
SQLite's own lock, as it did before), and ``turn`` waits for it at most ``TURN_TIMEOUT_S`` (SQLite's
busy timeout) before going on without it, so a stuck holder still surfaces as "database is locked".
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from sqlalchemy import Engine

T = TypeVar("T")

#: How long ``turn`` waits for this process's other writers: the connections' ``busy_timeout``.
TURN_TIMEOUT_S = 30.0


class DriverWriter:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.RLock()
        self._fairy: Any = None
        self._driver: Any = None
        self._cursor: Any = None

    @contextlib.contextmanager
    def turn(self, timeout_s: float = TURN_TIMEOUT_S) -> Iterator[None]:
        """This process's writers one at a time (the kept connection's appends and pooled writes)."""
        held = self._lock.acquire(timeout=timeout_s)
        try:
            yield
        finally:
            if held:
                self._lock.release()

    # The append path takes the writer itself for its transaction (``EventStore._append_in``): a
    # driver transaction is never guarded (any error rolls all of it back), and ``cursor()`` is the
    # kept cursor.  No wrapper object per append (ADR 0420).
    guarded = False

    def cursor(self) -> Any:
        """The kept cursor, inside ``run``'s transaction."""
        return self._cursor

    def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` inside ``BEGIN IMMEDIATE`` … ``COMMIT`` on the kept cursor (``cursor()``);
        rolled back if it raises."""
        with self._lock:
            cur = self._cursor
            if cur is None:
                cur = self._open()
            try:
                cur.execute("BEGIN IMMEDIATE")
                result = work(*args)
                # The cursor's cached statement: ``Connection.commit`` prepares its COMMIT anew each time.
                cur.execute("COMMIT")
            except BaseException:
                self._abandon()
                raise
            return result

    def _open(self) -> Any:
        fairy = self._engine.raw_connection()  # the engine's connect hooks set its pragmas
        driver = fairy.driver_connection
        fairy.detach()  # ours from now on: never returned to (nor reset by) the pool
        self._fairy, self._driver = fairy, driver
        self._cursor = self._driver.cursor()
        return self._cursor

    def _abandon(self) -> None:
        """After an error: roll back; a connection that cannot even roll back is dropped."""
        try:
            if self._driver is not None and self._driver.in_transaction:
                self._driver.rollback()
        except Exception:
            self.close_unlocked()  # the first error is the one raised

    def close_unlocked(self) -> None:
        fairy, self._fairy, self._driver, self._cursor = self._fairy, None, None, None
        if fairy is not None:
            with contextlib.suppress(Exception):  # closing a broken connection may fail too
                fairy.close()  # detached: closes the driver connection itself

    def close(self) -> None:
        with self._lock:
            self.close_unlocked()
