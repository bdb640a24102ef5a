"""The runtime's coverage checkpoint writer: native Discover executions earn ``ready`` (ADR 0132).

At worker start-up, on every heartbeat and at the end of ``jobctrl demo``, every Discover execution
whose membership is closed (its terminal fan-out ran, or an interruption closed it) and whose
checkpoint is not already a verified ``ready`` / ``incomplete`` is verified against the append-only
log (``verify_native_execution``): the keys the log proves for that exact execution must equal the
keys the read models hold (compared by counts and the incremental digest).  The read and the
checkpoint write share one transaction.

* the log is read up to the projection watermark read in the same transaction, so a projection
  that merely lags is compared with what it has folded, never reported as a loss;
* the keys match: ``ready`` -- or ``incomplete`` when the execution ended without its terminal
  fan-out succeeding (failed, canceled, terminated, timed out): its exact partial sets are kept and
  the bounded reason ``workflow_<status>`` is recorded, nothing is retried or invented;
* they differ: ``recovering`` (``key_set_mismatch``) -- start-up healing or the next fold repairs
  the rows, and a later pass publishes ``ready``;
* the log cannot be read as exact evidence (an event that does not decode) or the store fails:
  ``retrying`` with a bounded code; the next pass retries automatically.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.projections.read_models.discovery_executions import discovery_executions
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.recoveries import (
    ExecutionKey,
    discovery_execution_recoveries,
    record_retrying,
    verify_native_execution,
)
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.watermarks import read_watermark
from jobctrl.runtime.api.discover_phase import DISCOVER_WORKFLOW_TYPE

log = logging.getLogger(__name__)
UNDECODABLE = "undecodable_history"
STORE_UNAVAILABLE = "store_unavailable"
_SETTLED = ("ready", "incomplete")


@dataclass(frozen=True)
class CoverageReport:
    examined: int
    published: dict[str, str]  # run id -> status written


def _pending(conn: sa.Connection) -> list[tuple[ExecutionKey, str, str | None]]:
    """Closed Discover executions without a settled checkpoint: (key, workflow status, checkpoint)."""
    w, x, r = workflow_run_projections.c, discovery_executions.c, discovery_execution_recoveries.c
    s = pipeline_step_projections.c
    # Closed by its recorded closing fact, or by its terminal fan-out step (as the phase rule says).
    closed = sa.or_(
        sa.exists().where(
            x.tenant_id == w.tenant_id,
            x.workflow_id == w.workflow_id,
            x.run_id == w.run_id,
            x.membership_closed.is_(True),
        ),
        sa.exists().where(
            s.tenant_id == w.tenant_id,
            s.workflow_id == w.workflow_id,
            s.run_id == w.run_id,
            s.step_kind == "preparation_fanout",
            s.status.in_(("succeeded", "failed")),
        ),
    )
    rows = conn.execute(
        sa.select(w.tenant_id, w.workflow_id, w.run_id, w.status, r.status)
        .select_from(
            workflow_run_projections.outerjoin(
                discovery_execution_recoveries,
                sa.and_(r.tenant_id == w.tenant_id, r.workflow_id == w.workflow_id, r.run_id == w.run_id),
            )
        )
        .where(
            w.workflow_type == DISCOVER_WORKFLOW_TYPE,
            w.run_id.is_not(None),
            closed,
            sa.or_(r.status.is_(None), r.status.not_in(_SETTLED)),
        )
    ).all()
    return [(ExecutionKey(t, wf, run), status, cp) for t, wf, run, status, cp in rows]


def reconcile_coverage(store: EventStore, clock: Clock) -> CoverageReport:
    db = store.db
    with db.read() as conn:
        if not sa.inspect(conn).has_table(discovery_execution_recoveries.name):
            # No read models on this database yet (no projection runner ever ran): nothing to verify.
            return CoverageReport(0, {})
        watermark = read_watermark(conn, OPERATIONS_WATERMARK)
        pending = _pending(conn)
    published: dict[str, str] = {}
    for key, status, checkpoint in pending:
        if status == "in_progress" and checkpoint is None:
            continue  # still draining its fan-out steps: verified once it has ended
        terminal = None if status in ("succeeded", "in_progress") else f"workflow_{status}"
        now = isoformat(clock.now())
        try:
            published[key.run_id] = verify_native_execution(
                store, key, history_event_id=watermark, now=now, terminal_code=terminal, at_watermark=True
            )
        except (msgspec.ValidationError, msgspec.DecodeError, JobCtrlError) as exc:
            log.warning("coverage of %s refused: %s", key.run_id, exc)
            record_retrying(db, key, UNDECODABLE, now=now)
            published[key.run_id] = "retrying"
        except SQLAlchemyError:
            log.exception("coverage of %s failed; retrying next tick", key.run_id)
            try:
                record_retrying(db, key, STORE_UNAVAILABLE, now=now)
                published[key.run_id] = "retrying"
            except SQLAlchemyError:
                pass  # the store itself is down: nothing can be recorded; the next tick retries
    return CoverageReport(len(pending), published)
