"""Discovery use cases, one module each; plain inputs plus ports, usable from Temporal activities."""
