"""Migrate-before-use: bring the read-model schema to the newest Alembic revision.

Runs inside one write transaction (``BEGIN IMMEDIATE`` on SQLite; a transaction-scoped advisory lock
on PostgreSQL) so two processes starting together never race each other's DDL, and a migration that
fails leaves the old schema as it was.  The version table is ``projections_alembic_version`` so read
models never clash with another component's Alembic history.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from jobctrl.kernel.store.database import Database

VERSION_TABLE = "projections_alembic_version"
_SCRIPTS = Path(__file__).parent / "migrations"
_LOCK_KEY = 0x4A4350524F4A  # "JCPROJ": the advisory lock id for read-model migrations


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(db: Database) -> str | None:
    with db.read() as conn:
        return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()


def migrate(db: Database, revision: str = "head") -> None:
    """Upgrade the read-model schema to ``revision`` (the newest by default)."""
    config = _config()
    with db.write() as conn:
        if db.is_postgres:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
