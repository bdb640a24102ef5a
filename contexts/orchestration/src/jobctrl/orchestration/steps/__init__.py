"""Pipeline steps: execution-scoped lifecycle of orchestration gaps (planning, fan-out, PDF, ...)."""
