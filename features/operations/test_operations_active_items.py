"""Scenarios of features/operations/operations_active_items.feature (steps in conftest.py), both databases."""

from __future__ import annotations

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.both_databases
scenarios("operations/operations_active_items.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind
