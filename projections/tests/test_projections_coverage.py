"""Every registered event type has a fold or a reasoned "not projected" entry (every-event-has-handler)."""

from __future__ import annotations

import re

import jobctrl.projections as package
from jobctrl.kernel.registry import EventRegistry
from jobctrl.projections.coverage import NOT_PROJECTED, OPERATIONS, projected_event_types
from jobctrl.projections.read_models import discovery_executions, pipeline_steps, stage_states, workflow_runs


def test_every_registered_event_is_projected_or_deliberately_not(reg: EventRegistry) -> None:
    folded = projected_event_types()
    unhandled = [name for name in reg.names if name not in folded and name not in NOT_PROJECTED]
    assert unhandled == [], f"no fold and no reasoned NOT_PROJECTED entry for {unhandled}"


def test_not_projected_entries_are_reasoned_registered_and_not_contradicted(reg: EventRegistry) -> None:
    folded = projected_event_types()
    assert [n for n, why in NOT_PROJECTED.items() if len(why.strip()) < 20] == []
    assert sorted(set(NOT_PROJECTED) - set(reg.names)) == []
    assert sorted(set(NOT_PROJECTED) & folded) == []


def test_folds_only_name_registered_events_and_rows_match_their_tables(reg: EventRegistry) -> None:
    for projection in OPERATIONS:
        for table in projection.tables:
            table.check_shape()
        for fold in projection.folds:
            assert reg.class_for(fold.event.event_type) is fold.event
        assert projection.creates_rows_on <= projection.event_types


def test_the_documented_operations_columns_match_the_tables() -> None:
    """The package docstring is the column contract of the pipeline-operations read side: each
    table's entry names its key and then every other column, in table order."""
    doc = " ".join((package.__doc__ or "").split())
    for table in (
        discovery_executions.discovery_execution_jobs,
        discovery_executions.discovery_executions,
        pipeline_steps.pipeline_step_projections,
        stage_states.job_stage_states,
        workflow_runs.workflow_run_projections,
    ):
        entry = re.search(rf"``{table.name}`` — key \(([^)]*)\)(.*?)(?:\* ``|$)", doc)
        assert entry is not None, f"{table.name} is not documented"
        assert [c.strip() for c in entry.group(1).split(",")] == [c.name for c in table.primary_key.columns]
        text, at = entry.group(2), 0
        for column in (c.name for c in table.columns if not c.primary_key):
            found = re.compile(rf"\b{column}\b").search(text, at)
            assert found is not None, (
                f"{table.name}.{column} is missing from the documented columns (or out of order)"
            )
            at = found.end()
