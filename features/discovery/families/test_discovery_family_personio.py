"""Steps of features/discovery/families/personio.feature (shared steps: this folder's conftest)."""

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.both_databases

scenarios("discovery/families/personio.feature")
