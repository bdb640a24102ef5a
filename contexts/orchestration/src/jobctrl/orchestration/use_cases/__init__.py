"""Orchestration's use cases, one command per module (see ``jobctrl.orchestration`` for the public face)."""
