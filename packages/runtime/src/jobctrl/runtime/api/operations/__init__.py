"""``GET /v1/pipeline/operations``: the operational read model, from projections and heartbeats only.

``read_operations(conn, inputs)`` is a pure function of the read models (``workflow_run_projections``,
``discovery_execution_jobs``, ``job_stage_states``, ``pipeline_step_projections``,
``discovery_execution_recoveries``) and the ``worker_runtime_heartbeats`` rows, plus the spend flag
and the time passed in ``inputs``.  Nothing is guessed: an inventory that cannot be read fresh is
reported as ``null`` / ``stale`` / ``unavailable``, never as zero (ADR 0065).

``router`` is the FastAPI ``APIRouter`` serving it; the API's composition root mounts it.

One module per concern: ``models`` (the wire structs and constants), ``inventory`` (heartbeats),
``execution`` (selection, cohorts, phase), ``stages`` (per-scope counts, step progress), ``eta``
(pipeline-eta-v1), ``snapshot`` (the whole read) and ``route`` (the HTTP route).
"""

from jobctrl.runtime.api.operations.execution import _member_groups, select_execution
from jobctrl.runtime.api.operations.inventory import database_identity, read_inventory
from jobctrl.runtime.api.operations.models import (
    STAGES,
    CohortSummary,
    OperationsSnapshot,
    SnapshotInputs,
    TotalsCache,
)
from jobctrl.runtime.api.operations.route import budget_blocked, ensure_operations_schema, router
from jobctrl.runtime.api.operations.snapshot import read_operations
from jobctrl.runtime.api.operations.stages import _STATE_BUCKET

__all__ = [
    "STAGES",
    "_STATE_BUCKET",
    "CohortSummary",
    "OperationsSnapshot",
    "SnapshotInputs",
    "TotalsCache",
    "_member_groups",
    "budget_blocked",
    "database_identity",
    "ensure_operations_schema",
    "read_inventory",
    "read_operations",
    "router",
    "select_execution",
]
