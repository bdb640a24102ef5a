"""Adapters of the apply ports: Playwright browser on the system Chromium, SMTP email."""
