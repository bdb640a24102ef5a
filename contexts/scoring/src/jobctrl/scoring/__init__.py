"""The scoring bounded context."""
