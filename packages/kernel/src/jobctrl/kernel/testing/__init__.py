"""Test support shipped with the kernel: database fixtures for SQLite and PostgreSQL."""
