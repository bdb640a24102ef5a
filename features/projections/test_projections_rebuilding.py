"""Scenarios of features/projections/rebuilding.feature (steps in conftest.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.both_databases
scenarios("projections/rebuilding.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind
