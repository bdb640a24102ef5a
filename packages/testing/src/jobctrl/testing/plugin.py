"""The project's pytest plugin (loaded with ``-p jobctrl.testing.plugin``).

* ``db_url`` / ``database`` / ``store``: a fresh database (and its event store) per test,
  parametrised over SQLite and PostgreSQL for tests marked ``both_databases`` (the store and
  projection suites); SQLite only otherwise.
  PostgreSQL gets a schema of its own per test, dropped afterwards, so test runs never see each
  other's rows.  The server is ``JOBCTRL_TEST_PG_URL`` (default: the local trust-auth server).
* Markers follow the path: anything under ``features/`` is ``bdd``.
* The suite never touches the real home: ``JOBCTRL_HOME`` points at a fresh directory of this
  session (so keys, artifacts, the default database and the dev server's address land there), and
  ``JOBCTRL_KEYS_DIR`` / ``JOBCTRL_DATABASE_URL`` from the caller's environment are dropped.
  A test that needs a home of its own still sets ``JOBCTRL_HOME`` itself.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import Database, normalize_url, open_database

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def pg_admin_url() -> str:
    return normalize_url(os.environ.get("JOBCTRL_TEST_PG_URL", DEFAULT_PG_URL))


#: What the caller's environment may not carry into the suite: each would point a test at real data.
REAL_DATA_VARIABLES = ("JOBCTRL_KEYS_DIR", "JOBCTRL_DATABASE_URL")


def isolate_home() -> Path:
    """Point ``JOBCTRL_HOME`` at a fresh directory of this process, whatever the environment said."""
    home = Path(tempfile.mkdtemp(prefix="jobctrl-test-home-"))
    os.environ["JOBCTRL_HOME"] = str(home)
    for name in REAL_DATA_VARIABLES:
        os.environ.pop(name, None)
    return home


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_databases: run the test on SQLite and on PostgreSQL")
    isolate_home()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_kind" in metafunc.fixturenames:
        both = metafunc.definition.get_closest_marker("both_databases") is not None
        kinds = ["sqlite", "postgres"] if both else ["sqlite"]
        metafunc.parametrize("db_kind", kinds, ids=kinds)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath))
        if "features" in path.parts:
            item.add_marker(pytest.mark.bdd)
        if "[postgres" in item.nodeid or "-postgres" in item.nodeid:
            item.add_marker(pytest.mark.postgres)


class PgSchema:
    """A throw-away PostgreSQL schema; its URL pins ``search_path`` to it."""

    def __init__(self) -> None:
        self.name = f"t_{uuid.uuid4().hex[:16]}"
        self._admin = create_engine(pg_admin_url(), isolation_level="AUTOCOMMIT")
        with self._admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{self.name}"'))
        base = pg_admin_url()
        sep = "&" if "?" in base else "?"
        self.url = f"{base}{sep}options=-csearch_path%3D{self.name}"

    def drop(self) -> None:
        with self._admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE'))
        self._admin.dispose()


@pytest.fixture
def db_kind() -> str:  # replaced by parametrisation in pytest_generate_tests
    return "sqlite"


@contextlib.contextmanager
def fresh_url(db_kind: str, tmp_path: Path, name: str = "jobctrl") -> Iterator[str]:
    """The URL of a new, empty database of that kind: a SQLite file in ``tmp_path``, or a PostgreSQL
    schema of its own that is dropped afterwards."""
    if db_kind == "sqlite":
        yield f"sqlite:///{tmp_path / f'{name}.db'}"
        return
    schema = PgSchema()
    try:
        yield schema.url
    finally:
        schema.drop()


@contextlib.contextmanager
def opened(url: str) -> Iterator[Database]:
    """The database at ``url``, its connections disposed afterwards."""
    db = open_database(url)
    try:
        yield db
    finally:
        db.dispose()


@pytest.fixture
def db_url(db_kind: str, tmp_path: Path) -> Iterator[str]:
    with fresh_url(db_kind, tmp_path) as url:
        yield url


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    with opened(db_url) as db:
        yield db


@pytest.fixture
def store(database: Database) -> EventStore:
    """The event store on ``database`` with every registered event type, its schema created."""
    events = EventStore(database, registry())
    events.create_schema()
    return events


@pytest.fixture
def other_store(db_url: str, store: EventStore) -> Iterator[EventStore]:
    """A second writer on the same database as ``store``, over its own database handle: what
    another process would write with (for tests of a stale load, a cache's invalidation)."""
    with opened(db_url) as db:
        yield EventStore(db, registry())
