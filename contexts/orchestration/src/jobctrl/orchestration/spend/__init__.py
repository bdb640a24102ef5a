"""The daily LLM spend ledger and the spend preflight."""
