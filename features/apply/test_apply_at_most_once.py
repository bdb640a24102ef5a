"""Scenarios of features/apply/at_most_once.feature (steps: conftest.py, steps_*.py)."""

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.both_databases
scenarios("apply/at_most_once.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind
