"""The enrichment bounded context."""
