"""Worker readiness: a fresh ``worker_runtime_heartbeats`` row (stale after 45 s) means a worker is
polling.  Actions that hand work to the runtime check this BEFORE they change anything."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database
from jobctrl.runtime.api.operations.inventory import database_identity, same_runtime
from jobctrl.runtime.telemetry.heartbeat import fresh_heartbeats


class WorkerRuntimeUnavailable(JobCtrlError):
    code = "worker_runtime_unavailable"
    retryable = True


def require_ready_worker(db: Database, now: datetime) -> int:
    """The number of fresh workers; raises ``WorkerRuntimeUnavailable`` when there is none."""
    identity = database_identity(db)
    try:
        # Only workers of this installation (resolved database and app directory) count.
        fresh = len([r for r in fresh_heartbeats(db, now) if same_runtime(r, identity)])
    except SQLAlchemyError:  # no heartbeat table yet: no worker has ever run against this database
        fresh = 0
    if fresh == 0:
        raise WorkerRuntimeUnavailable("no worker of this database has sent a heartbeat in the last 45 s")
    return fresh
