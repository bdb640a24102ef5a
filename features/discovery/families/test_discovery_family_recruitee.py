"""Steps of features/discovery/families/recruitee.feature (shared steps: this folder's conftest)."""

from pytest_bdd import scenarios

scenarios("discovery/families/recruitee.feature")
