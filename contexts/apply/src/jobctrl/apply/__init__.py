"""The apply bounded context."""
