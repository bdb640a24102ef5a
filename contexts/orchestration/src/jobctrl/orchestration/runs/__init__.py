"""Workflow runs: the lifecycle facts of every Temporal execution and the describe reconciler."""
