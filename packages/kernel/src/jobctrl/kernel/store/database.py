"""Opening the database: one URL picks SQLite (the embedded default) or PostgreSQL.

SQLite runs in WAL mode with ``synchronous=NORMAL`` (durable across process crashes; ADR 0002).
Write transactions start with ``BEGIN IMMEDIATE`` so the write lock is taken before the first read
of the transaction, which makes the version check and the insert one atomic step and avoids the
deadlock of two deferred transactions upgrading at once.  Readers use plain deferred transactions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, MetaData, Table, create_engine, event
from sqlalchemy.engine import make_url

from jobctrl.kernel.errors import ConfigurationError

_WRITE_OPTION = "jobctrl_write"


def jobctrl_home() -> Path:
    return Path(os.environ.get("JOBCTRL_HOME") or Path.home() / ".jobctrl")


def database_url_from_env() -> str:
    """``JOBCTRL_DATABASE_URL`` if set, else SQLite at ``$JOBCTRL_HOME/jobctrl.db``."""
    url = os.environ.get("JOBCTRL_DATABASE_URL")
    if url:
        return normalize_url(url)
    home = jobctrl_home()
    home.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{home / 'jobctrl.db'}"


def normalize_url(url: str) -> str:
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


@dataclass(frozen=True)
class Database:
    engine: Engine

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: ``BEGIN IMMEDIATE`` on SQLite; committed on success, rolled back on error."""
        with self.engine.connect().execution_options(**{_WRITE_OPTION: True}) as conn, conn.begin():
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def create_tables(self, metadata: MetaData, tables: Sequence[Table] | None = None) -> None:
        """``CREATE TABLE IF NOT EXISTS`` in a write transaction.  On SQLite a deferred transaction
        reads the schema first and then cannot upgrade to a writer if another connection committed
        meanwhile ("database is locked" at once, busy timeout or not): start-up beside a running
        worker or projection runner must not trip on that."""
        with self.write() as conn:
            metadata.create_all(conn, tables=None if tables is None else list(tables))

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(url: str | None = None, **engine_kwargs: Any) -> Database:
    url = normalize_url(url or database_url_from_env())
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:"):
            raise ConfigurationError("JobCtrl needs a SQLite file, not an in-memory database")
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        # A pooled connection keeps its pragmas and, above all, is not closed after every
        # transaction: closing the last connection of a WAL database checkpoints it (ADR 0006).
        engine = create_engine(url, **engine_kwargs)
        _install_sqlite_hooks(engine)
    elif parsed.get_backend_name() == "postgresql":
        engine = create_engine(url, pool_pre_ping=True, **engine_kwargs)
    else:
        raise ConfigurationError(
            f"unsupported database {parsed.get_backend_name()!r}: use sqlite or postgresql"
        )
    return Database(engine)


def _install_sqlite_hooks(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control away from the sqlite3 module so BEGIN is ours to issue.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        immediate = conn.get_execution_options().get(_WRITE_OPTION, False)
        # Straight to the driver: BEGIN needs none of SQLAlchemy's statement machinery (ADR 0006).
        conn.connection.driver_connection.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")  # type: ignore[union-attr]
