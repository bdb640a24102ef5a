"""The orchestration bounded context."""
