"""Composition roots: settings, CLI, worker, API."""
