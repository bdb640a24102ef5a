"""Alembic scripts for the read-model schema (run by ``jobctrl.projections.migrate``)."""
