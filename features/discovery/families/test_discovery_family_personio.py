"""Steps of features/discovery/families/personio.feature (shared steps: this folder's conftest)."""

from pytest_bdd import scenarios

scenarios("discovery/families/personio.feature")
