"""Runtime telemetry: the activity interceptor and the worker heartbeat row."""
