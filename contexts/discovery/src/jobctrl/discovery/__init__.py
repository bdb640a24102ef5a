"""The discovery bounded context."""
