"""Orchestration's aggregates: the lifecycle of one workflow run, the pipeline steps of one execution."""
