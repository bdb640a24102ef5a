"""Steps of features/discovery/families/workday.feature (shared steps: this folder's conftest)."""

from pytest_bdd import scenarios

scenarios("discovery/families/workday.feature")
