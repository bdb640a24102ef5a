"""Worker readiness: a fresh ``worker_runtime_heartbeats`` row (stale after 45 s) means a worker is
polling.  Actions that hand work to the runtime check this BEFORE they change anything."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database
from jobctrl.runtime.telemetry.heartbeat import fresh_heartbeats


class WorkerRuntimeUnavailable(JobCtrlError):
    code = "worker_runtime_unavailable"
    retryable = True


def require_ready_worker(db: Database, now: datetime) -> int:
    """The number of fresh workers; raises ``WorkerRuntimeUnavailable`` when there is none."""
    try:
        fresh = len(fresh_heartbeats(db, now))
    except SQLAlchemyError:  # no heartbeat table yet: no worker has ever run against this database
        fresh = 0
    if fresh == 0:
        raise WorkerRuntimeUnavailable("no worker has sent a heartbeat in the last 45 s")
    return fresh
