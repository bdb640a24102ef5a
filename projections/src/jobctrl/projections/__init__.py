"""Read-model tables, folds, the projection runner, rebuild and status.

Public API:

* ``ProjectionRunner(db, registry, projections=OPERATIONS, watermark="operations", batch_size=...,
  poll_interval=...)``: ``prepare()`` (migrate, ensure watermark, self-heal), ``step()``,
  ``catch_up()``, ``run(stop)`` (catch up and follow), ``stop()``.
* ``rebuild(db, registry, names=None, batch_size=..., progress=...)``: transactional rebuild.
* ``read_status(db)``: head, watermark, lag, rows per table, skipped events.
* ``dump_rows`` / ``dump_json``: a read model as camelCase JSON in primary-key order.
* ``import_file(store, path)``: JSON Lines reference envelopes into the log.
* ``verify_native_execution`` / ``record_native_checkpoint`` / ``record_retrying`` /
  ``read_coverage``: the Discover execution recovery checkpoint (``discovery_execution_recoveries``),
  ready only while its proof still holds.
* ``read_dashboard(conn)``: counters plus live workflow/stage state, never "running" for a dead run.
* Building blocks for new read models: ``Projection``, ``Fold``, ``ReadModelTable``, ``EventInfo``,
  ``DELETED``; add the module's ``PROJECTION`` to ``coverage.OPERATIONS`` and a migration revision.
"""

from jobctrl.projections.coverage import NOT_PROJECTED, OPERATIONS, UnknownProjection, projection_named
from jobctrl.projections.dump import dump_json, dump_rows
from jobctrl.projections.importing import ImportReport, import_file
from jobctrl.projections.migrate import migrate
from jobctrl.projections.model import DELETED, EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.operations_indexes import STAGE_STATE_FINISHED
from jobctrl.projections.read_models.dashboard import read_dashboard
from jobctrl.projections.rebuild import RebuildConflict, RebuildResult, rebuild
from jobctrl.projections.recoveries import (
    Coverage,
    ExecutionKey,
    KeySets,
    read_coverage,
    record_native_checkpoint,
    record_retrying,
    verify_native_execution,
)
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.status import ProjectionStatus, read_status

__all__ = [
    "DELETED",
    "NOT_PROJECTED",
    "OPERATIONS",
    "OPERATIONS_WATERMARK",
    "STAGE_STATE_FINISHED",
    "Coverage",
    "EventInfo",
    "ExecutionKey",
    "Fold",
    "ImportReport",
    "KeySets",
    "Projection",
    "ProjectionRunner",
    "ProjectionStatus",
    "ReadModelTable",
    "RebuildConflict",
    "RebuildResult",
    "UnknownProjection",
    "dump_json",
    "dump_rows",
    "import_file",
    "migrate",
    "projection_named",
    "read_coverage",
    "read_dashboard",
    "read_status",
    "rebuild",
    "record_native_checkpoint",
    "record_retrying",
    "verify_native_execution",
]
