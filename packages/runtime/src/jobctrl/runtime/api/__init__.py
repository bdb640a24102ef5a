"""The HTTP API (FastAPI): one composition root, ``create_app``."""
