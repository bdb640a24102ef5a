"""Test scaffolding for JobCtrl, shipped in no product package (dev only): the pytest plugin
(database fixtures over SQLite and PostgreSQL), the Temporal runtime harness, synthetic logs, local
stand-in servers for the system's edges (a job site with application forms, an OpenAI-compatible
model endpoint) and the ``make bench`` suites."""
