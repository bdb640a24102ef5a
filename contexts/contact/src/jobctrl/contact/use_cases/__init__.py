"""Contact use cases, one module each."""
