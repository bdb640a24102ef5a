"""``workflow_run_history``: one row per (tenant, workflow id, run id), every run of a workflow id.

``workflow_run_projections`` keeps only the latest run of a workflow id (a rerun of Discover starts the
same deterministic id with a new run id); this keeps each run, so run detail is addressable by run id
(ADR 0271).  The rows have the same columns and are folded by the same rules as the latest-run table
(``workflow_runs``'s fold functions): keyed by run id, every event of a key is its own run's, so the
"older run" guards there never fire and each row is that run alone (its timeline, its terminal, its
cancel request; ``previous_run_ids_json`` stays ``[]``).  An event without a Temporal run id is
kept under run id ``""``.

Its own projection, so an existing database whose history table starts empty (migration ``p0012``)
is found ``empty`` at start-up and rebuilt from the log.
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.read_models.workflow_runs import (
    CREATES_ROWS_ON,
    LIFECYCLE,
    Apply,
    WorkflowRunRow,
    workflow_run_projections,
)
from jobctrl.projections.schema import metadata

_KEY = ("tenant_id", "workflow_id", "run_id")

workflow_run_history = sa.Table(
    "workflow_run_history",
    metadata,
    *(
        sa.Column(c.name, c.type, primary_key=c.name in _KEY, nullable=c.nullable and c.name not in _KEY)
        for c in workflow_run_projections.columns
    ),
)
WORKFLOW_RUN_HISTORY = ReadModelTable(workflow_run_history, WorkflowRunRow)


def _key(event: Any, info: EventInfo) -> tuple[str, str, str]:
    return (info.tenant_id, event.workflow_id, event.temporal_run_id or "")


def _per_run(fold: Apply) -> Apply:
    def apply(row: WorkflowRunRow | None, event: Any, info: EventInfo) -> WorkflowRunRow | None:
        new = fold(row, event, info)
        if new is None or new.run_id is not None:
            return new
        return msgspec.structs.replace(new, run_id="")  # the key's run id, never NULL

    return apply


PROJECTION = Projection(
    name="workflow_run_history",
    tables=(WORKFLOW_RUN_HISTORY,),
    folds=tuple(Fold(event, WORKFLOW_RUN_HISTORY, _key, _per_run(apply)) for event, apply in LIFECYCLE),
    creates_rows_on=CREATES_ROWS_ON,
)
