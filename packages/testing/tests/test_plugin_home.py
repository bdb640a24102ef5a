"""The test plugin keeps the suite off the real home: ``JOBCTRL_HOME`` is a fresh directory of the
session, so a vault built without a key directory (PostgreSQL: no database file to sit beside) writes
its keys there, never under ``~/.jobctrl``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jobctrl.contact.adapters.vault import default_key_store
from jobctrl.kernel.store import Database
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.materials.adapters.artifacts import default_root
from jobctrl.testing.plugin import REAL_DATA_VARIABLES, isolate_home


def test_the_session_home_is_not_the_real_home() -> None:
    home = jobctrl_home()
    assert home != Path.home() / ".jobctrl" and home.name.startswith("jobctrl-test-home-")
    assert home.is_dir()
    assert not any(name in os.environ for name in REAL_DATA_VARIABLES)


@pytest.mark.both_databases
def test_default_keys_and_artifacts_land_under_the_session_home(database: Database, db_kind: str) -> None:
    keys = default_key_store(database)
    beside_file = db_kind == "sqlite"  # SQLite keeps them beside its file (a tmp_path)
    assert Path.home() / ".jobctrl" not in Path(keys.directory).parents
    if not beside_file:
        assert Path(keys.directory) == jobctrl_home() / "keys"
    assert jobctrl_home() in default_root().parents


def test_isolating_drops_what_would_point_at_real_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBCTRL_HOME", str(Path.home() / ".jobctrl"))
    monkeypatch.setenv("JOBCTRL_KEYS_DIR", str(Path.home() / ".jobctrl" / "keys"))
    monkeypatch.setenv("JOBCTRL_DATABASE_URL", "sqlite:////nonexistent/real.db")
    home = isolate_home()
    assert os.environ["JOBCTRL_HOME"] == str(home) != str(Path.home() / ".jobctrl")
    assert "JOBCTRL_KEYS_DIR" not in os.environ and "JOBCTRL_DATABASE_URL" not in os.environ
