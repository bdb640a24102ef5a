"""Steps of features/discovery/families/workable.feature (shared steps: this folder's conftest)."""

from pytest_bdd import scenarios

scenarios("discovery/families/workable.feature")
