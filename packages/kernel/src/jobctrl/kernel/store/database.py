"""Opening the database: one URL picks SQLite (the embedded default) or PostgreSQL.

SQLite runs in WAL mode with ``synchronous=NORMAL`` (durable across process crashes; ADR 0002).
Write transactions start with ``BEGIN IMMEDIATE`` so the write lock is taken before the first read
of the transaction, which makes the version check and the insert one atomic step and avoids the
deadlock of two deferred transactions upgrading at once.  Readers use plain deferred transactions.

Fail closed on storage loss (ADR 0102): every database carries a ``jobctrl_database`` row with a
random id, claimed when it is first opened.  A process remembers the id it opened (and, on SQLite,
the file's device and inode; a hidden marker ``.<name>.id`` beside the file records that a database
was created there).  Every transaction first checks the file is still the one it opened, every write
on PostgreSQL checks the id row, and driver errors that mean the storage is gone, read-only, full or
unreachable become ``StorageUnavailable`` with that reason.  Nothing ever creates a second, empty
database where the marker says one was.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    select,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from jobctrl.kernel.errors import ConfigurationError, StorageUnavailable
from jobctrl.kernel.store.writer import DriverWriter

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


MIN_FREE_BYTES: Final = 1024 * 1024  # below this, health reports a SQLite volume as full
_identity_metadata = MetaData()
database_identity = Table(
    "jobctrl_database",
    _identity_metadata,
    Column("singleton", Integer, primary_key=True, autoincrement=False),
    Column("database_id", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("checked_at", String(40), nullable=True),
)


def identity_marker(path: Path) -> Path:
    """The hidden file beside a SQLite database that says one was created there, and which."""
    return path.with_name(f".{path.name}.id")


@dataclass
class StorageIdentity:
    """What this process opened, and the last storage failure a write met (cleared by a success)."""

    path: Path | None = None
    file_id: tuple[int, int] | None = None
    fspath: str = ""  # ``path`` as text, set with ``file_id`` (a ``Path`` costs a conversion per stat)
    database_id: str = ""
    failure: StorageUnavailable | None = None


def storage_failure(exc: BaseException, *, path: Path | None = None) -> StorageUnavailable | None:
    """The ``StorageUnavailable`` a driver error means, or ``None`` for any other error."""
    if isinstance(exc, StorageUnavailable):
        return exc
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if not isinstance(exc, DBAPIError) and not type(orig).__module__.startswith(("sqlite3", "psycopg")):
        return None
    sqlstate = str(getattr(orig, "sqlstate", "") or "")
    text = str(orig).lower()
    where = f" ({path})" if path is not None else ""
    if sqlstate == "53100" or "database or disk is full" in text or "no space left" in text:
        return StorageUnavailable("disk_full", f"the database's disk is full{where}: free space and retry")
    if sqlstate == "25006" or "readonly database" in text or "read-only" in text:
        return StorageUnavailable(
            "read_only", f"the database is read-only{where}: make it writable and retry"
        )
    if "jobctrl_database" in text and ("no such table" in text or sqlstate == "42P01"):
        return StorageUnavailable("missing", f"the database lost its identity table{where}: it was replaced")
    if "no such table" in text or sqlstate == "42P01":
        return StorageUnavailable(
            "missing", f"the database lacks a table this process expects{where}: it was replaced or dropped"
        )
    if sqlstate.startswith("08") or sqlstate in ("57P01", "57P02", "57P03", "3D000"):
        return StorageUnavailable("unreachable", f"the database server is unreachable: {text[:200]}")
    if "unable to open database file" in text or "disk i/o error" in text:
        return StorageUnavailable("unreachable", f"the database file cannot be opened{where}")
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return StorageUnavailable("unreachable", "the database connection was lost")
    return None


@dataclass(frozen=True)
class Database:
    engine: Engine
    identity: StorageIdentity = field(default_factory=StorageIdentity, compare=False)
    #: the append path's kept connection on SQLite (ADR 0231); ``None`` on PostgreSQL
    writer: DriverWriter | None = field(default=None, compare=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"

    def verify(self) -> None:
        """Raise ``StorageUnavailable`` unless the SQLite file is still the one this process opened."""
        ident = self.identity
        if ident.file_id is None:  # set (with ``fspath``) once a SQLite file is claimed
            return
        try:
            st = os.stat(ident.fspath)
        except FileNotFoundError:
            raise StorageUnavailable(
                "missing", f"the database {ident.path} is gone (deleted or moved while in use): restore it"
            ) from None
        except OSError as exc:
            raise StorageUnavailable(
                "unreachable", f"the database {ident.path} cannot be read: {exc}"
            ) from None
        if (st.st_dev, st.st_ino) != ident.file_id:
            raise StorageUnavailable(
                "replaced", f"the database {ident.path} was replaced by another file while in use: restart"
            )

    @contextmanager
    def storage_errors(self, *, writing: bool) -> Iterator[None]:
        """Map driver errors that mean lost storage to ``StorageUnavailable``; remember a write's."""
        try:
            yield
        except Exception as exc:
            failure = self.storage_failed(exc, writing=writing)
            if failure is None or failure is exc:
                raise
            raise failure from exc
        if writing:
            self.identity.failure = None

    def storage_failed(self, exc: BaseException, *, writing: bool) -> StorageUnavailable | None:
        """The ``StorageUnavailable`` ``exc`` means (remembered if ``writing``), or ``None``."""
        failure = storage_failure(exc, path=self.identity.path)
        if failure is not None and writing:
            self.identity.failure = failure
        return failure

    def check_identity(self, conn: Connection) -> None:
        """Inside a write on PostgreSQL: the id row is still the one this process opened."""
        if not self.is_postgres or not self.identity.database_id:
            return
        found = conn.execute(select(database_identity.c.database_id)).scalar()
        if found != self.identity.database_id:
            raise StorageUnavailable("replaced", "the database's identity changed while in use: restart")

    def check_identity_cursor(self, cur: Any) -> None:
        """``check_identity`` on a driver cursor (the store's append path) on PostgreSQL."""
        if not self.identity.database_id:
            return
        cur.execute("SELECT database_id FROM jobctrl_database")
        row = cur.fetchone()
        if row is None or row[0] != self.identity.database_id:
            raise StorageUnavailable("replaced", "the database's identity changed while in use: restart")

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: ``BEGIN IMMEDIATE`` on SQLite; committed on success, rolled back on error."""
        turn = self.writer.turn() if self.writer is not None else nullcontext()
        with self.storage_errors(writing=True):
            self.verify()
            # In turn with this process's other writers (ADR 0362), not in SQLite's busy handler.
            with turn, self.engine.connect().execution_options(**{_WRITE_OPTION: True}) as conn, conn.begin():
                self.check_identity(conn)
                yield conn

    @property
    def mark(self) -> str:
        """The driver's parameter mark, for :meth:`fetch`'s SQL."""
        return "%s" if self.is_postgres else "?"

    def fetch(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one ``SELECT`` (parameters marked with :attr:`mark`) on a pooled connection's
        driver cursor: the same storage check and error mapping as :meth:`read`, without SQLAlchemy's
        statement and transaction machinery (the hot per-stream reads, ADR 0375).  One statement is
        one snapshot on its own (SQLite runs it in autocommit; the pool rolls PostgreSQL's back)."""
        with self.storage_errors(writing=False):
            self.verify()
            pooled = self.engine.raw_connection()
            try:
                cur = pooled.driver_connection.cursor()  # type: ignore[union-attr]
                try:
                    cur.execute(sql, params)
                    return list(cur.fetchall())
                finally:
                    cur.close()
            finally:
                pooled.close()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.storage_errors(writing=False):
            self.verify()
            with self.engine.connect() as conn, conn.begin():
                yield conn

    def health(self) -> StorageUnavailable | None:
        """``None`` when a probe write commits (and a SQLite volume has space); else why not."""
        try:
            with self.write() as conn:
                conn.execute(
                    database_identity.update().values(
                        checked_at=datetime.now(UTC).isoformat(timespec="seconds")
                    )
                )
        except StorageUnavailable as exc:
            return exc
        path = self.identity.path
        if path is not None and shutil.disk_usage(path.parent).free < MIN_FREE_BYTES:
            full = StorageUnavailable("disk_full", f"the database's disk is full ({path}): free space")
            self.identity.failure = full
            return full
        return None

    def _read_identity(self) -> str | None:
        try:
            with self.engine.connect() as conn, conn.begin():
                found = conn.execute(select(database_identity.c.database_id)).scalar()
        except DBAPIError as exc:
            text = str(exc.orig).lower()
            if "jobctrl_database" in text and ("no such table" in text or "does not exist" in text):
                return None
            raise
        return None if found is None else str(found)

    def claim(self) -> None:
        """Read (or, for a new database, create) the identity row and remember what was opened."""
        ident = self.identity
        with self.storage_errors(writing=False):
            found = self._read_identity()
            if found is None:
                insert = pg_insert if self.is_postgres else sqlite_insert
                now = datetime.now(UTC).isoformat(timespec="seconds")
                with self.engine.connect().execution_options(**{_WRITE_OPTION: True}) as conn, conn.begin():
                    _identity_metadata.create_all(conn)
                    conn.execute(
                        insert(database_identity)
                        .values(singleton=1, database_id=uuid.uuid4().hex, created_at=now)
                        .on_conflict_do_nothing()
                    )
                    found = str(conn.execute(select(database_identity.c.database_id)).scalar_one())
        ident.database_id = found
        if ident.path is None:
            return
        st = os.stat(ident.path)
        ident.fspath = os.fspath(ident.path)
        ident.file_id = (st.st_dev, st.st_ino)
        marker = identity_marker(ident.path)
        if marker.exists():
            if marker.read_text(encoding="utf-8").strip() != found:
                raise StorageUnavailable(
                    "replaced",
                    f"{ident.path} is not the database that was created here ({marker} names another): "
                    "restore the original, or remove the marker to adopt this one",
                )
            return
        try:
            tmp = marker.with_suffix(".tmp")
            tmp.write_text(found + "\n", encoding="utf-8")
            tmp.replace(marker)
        except OSError:
            pass  # a read-only directory: the file identity still guards this process

    def create_tables(self, metadata: MetaData, tables: Sequence[Table] | None = None) -> None:
        """``CREATE TABLE IF NOT EXISTS`` in a write transaction.  On SQLite a deferred transaction
        reads the schema first and then cannot upgrade to a writer if another connection committed
        meanwhile ("database is locked" at once, busy timeout or not): start-up beside a running
        worker or projection runner must not trip on that."""
        with self.write() as conn:
            metadata.create_all(conn, tables=None if tables is None else list(tables))

    def scrub(self) -> None:
        """After removing secrets from rows: on SQLite, rewrite the file without free pages
        (``VACUUM`` with ``secure_delete``) and empty the WAL (``wal_checkpoint(TRUNCATE)``), so the
        old page images are gone from both.  PostgreSQL keeps dead tuples until a ``VACUUM FULL`` the
        operator runs (ADR 0103)."""
        if not self.is_sqlite:
            return
        self.verify()
        with self.engine.connect() as conn:
            driver: Any = conn.connection.driver_connection
            driver.execute("PRAGMA secure_delete=ON")
            driver.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            driver.execute("VACUUM")
            driver.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def dispose(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.engine.dispose()


def open_database(url: str | None = None, **engine_kwargs: Any) -> Database:
    url = normalize_url(url or database_url_from_env())
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:"):
            raise ConfigurationError("JobCtrl needs a SQLite file, not an in-memory database")
        # ``sqlite:///file:/x.db?mode=ro&uri=true`` is a read-only URI connection to /x.db.
        path = Path(database.removeprefix("file:") if parsed.query.get("uri") else database).absolute()
        path.parent.mkdir(parents=True, exist_ok=True)
        marker = identity_marker(path)
        if not path.exists() and marker.exists():
            raise StorageUnavailable(
                "missing",
                f"the database {path} is missing, but {marker} says one was created there: restore it "
                f"(or remove {marker} to start a new, empty database)",
            )
        # A pooled connection keeps its pragmas and, above all, is not closed after every
        # transaction: closing the last connection of a WAL database checkpoints it (ADR 0006).
        engine = create_engine(url, **engine_kwargs)
        _install_sqlite_hooks(engine)
        db = Database(engine, StorageIdentity(path=path), DriverWriter(engine))
    elif parsed.get_backend_name() == "postgresql":
        engine = create_engine(url, pool_pre_ping=True, **engine_kwargs)
        db = Database(engine)
    else:
        raise ConfigurationError(
            f"unsupported database {parsed.get_backend_name()!r}: use sqlite or postgresql"
        )
    try:
        db.claim()
    except BaseException:
        engine.dispose()
        raise
    return db


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
