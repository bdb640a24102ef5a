"""Scenarios of features/apply/dry_run_guard.feature (steps in conftest.py)."""

from pytest_bdd import scenarios

scenarios("apply/dry_run_guard.feature")
