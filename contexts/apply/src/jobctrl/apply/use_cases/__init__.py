"""One module per use case; each loads its aggregate(s), decides, and saves in one transaction."""
