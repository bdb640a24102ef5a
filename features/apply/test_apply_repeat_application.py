"""Scenarios of features/apply/repeat_application.feature (steps in conftest.py)."""

from pytest_bdd import scenarios

scenarios("apply/repeat_application.feature")
