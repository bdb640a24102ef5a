"""Enrichment use cases, one module each; plain inputs plus ports, callable from Temporal activities."""
