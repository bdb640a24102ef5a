"""Scenarios of features/apply/dry_run_guard.feature (steps: conftest.py, steps_*.py)."""

from pytest_bdd import scenarios

scenarios("apply/dry_run_guard.feature")
