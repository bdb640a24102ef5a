"""Scenarios of features/apply/repeat_application.feature (steps: conftest.py, steps_*.py)."""

from pytest_bdd import scenarios

scenarios("apply/repeat_application.feature")
