"""Steps of features/discovery/families/smartrecruiters.feature (shared steps: this folder's conftest)."""

from pytest_bdd import scenarios

scenarios("discovery/families/smartrecruiters.feature")
