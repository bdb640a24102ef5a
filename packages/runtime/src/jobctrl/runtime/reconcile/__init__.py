"""Reconcilers run by the worker: workflow runs (describe-based), the discovery schedule, the
standing auto-apply loop."""
