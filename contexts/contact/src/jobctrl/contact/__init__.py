"""The contact bounded context."""
