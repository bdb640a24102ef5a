"""Steps of features/discovery/families/workday.feature (shared steps: this folder's conftest)."""

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.both_databases

scenarios("discovery/families/workday.feature")
