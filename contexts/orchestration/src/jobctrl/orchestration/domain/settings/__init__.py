"""Operator settings with defaults and validation, persisted in the ``jobctrl_settings`` table."""
