"""The materials bounded context."""
