"""``discovery_execution_recoveries``: the durable recovery checkpoint of one Discover execution.

Keyed by (tenant, Discover workflow id, Temporal run id).  It records the decoder version, the mode
(``native`` / ``reconstructed``), the history-event watermark, the expected and persisted counts of
the two canonical key sets (membership keys in ``discovery_execution_jobs``, step keys in
``pipeline_step_projections``), a digest of both sets and a bounded error code.

Invariant: ``ready`` is *earned*, never inferred.  ``record_native_checkpoint`` writes ``ready``
only when the expected key sets equal the persisted ones; ``read_coverage`` re-derives the persisted
sets on every read and reports a ready row whose counts or digest no longer match as
``recovering`` (``proof_mismatch``).  Row counts alone, a terminal workflow or runtime telemetry
never promote a checkpoint.

Out of scope here (ADR 0066): the Temporal-history decoder for legacy (``reconstructed``) runs, and
advancing a native proof in the same transaction as each canonical key write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa

from jobctrl.discovery.events import DiscoveryExecutionMemberLinked
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.text import bounded_code
from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.schema import metadata

CoverageStatus = Literal["ready", "recovering", "retrying", "incomplete"]
Mode = Literal["native", "reconstructed"]
NATIVE_DECODER_VERSION = 3
PROOF_MISMATCH = "proof_mismatch"
KEY_SET_MISMATCH = "key_set_mismatch"

discovery_execution_recoveries = sa.Table(
    "discovery_execution_recoveries",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("workflow_id", sa.String(200), primary_key=True),
    sa.Column("run_id", sa.String(200), primary_key=True),
    sa.Column("decoder_version", sa.Integer, nullable=False),
    sa.Column("mode", sa.String(20), nullable=False),
    sa.Column("history_event_id", sa.BigInteger, nullable=True),
    sa.Column("expected_members", sa.Integer, nullable=False),
    sa.Column("expected_steps", sa.Integer, nullable=False),
    sa.Column("persisted_members", sa.Integer, nullable=False),
    sa.Column("persisted_steps", sa.Integer, nullable=False),
    sa.Column("key_digest", sa.String(64), nullable=True),
    sa.Column("error_code", sa.String(64), nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)


class InvalidCheckpoint(JobCtrlError):
    code = "invalid_recovery_checkpoint"
    retryable = False


@dataclass(frozen=True)
class ExecutionKey:
    tenant_id: str
    workflow_id: str
    run_id: str


StepKey = tuple[str, str]  # (step kind, item key)


@dataclass(frozen=True)
class KeySets:
    members: frozenset[str]
    steps: frozenset[StepKey]

    @property
    def digest(self) -> str:
        return key_digest(self.members, self.steps)


@dataclass(frozen=True)
class Coverage:
    status: CoverageStatus
    mode: Mode
    decoder_version: int
    history_event_id: int | None
    expected_members: int
    expected_steps: int
    persisted_members: int
    persisted_steps: int
    error_code: str | None
    verified: bool  # True only for a ready row whose proof matched the durable rows on this read


def key_digest(members: Iterable[str], steps: Iterable[StepKey]) -> str:
    """sha256 over the sorted canonical keys; the unit separator cannot occur in a bounded key."""
    h = hashlib.sha256()
    for job_id in sorted(members):
        h.update(f"m\x1f{job_id}\n".encode())
    for kind, item in sorted(steps):
        h.update(f"s\x1f{kind}\x1f{item}\n".encode())
    return h.hexdigest()


def persisted_key_sets(conn: sa.Connection, ex: ExecutionKey) -> KeySets:
    m, s = discovery_execution_jobs.c, pipeline_step_projections.c
    members = conn.execute(
        sa.select(m.job_id).where(
            m.tenant_id == ex.tenant_id, m.workflow_id == ex.workflow_id, m.run_id == ex.run_id
        )
    ).scalars()
    steps = conn.execute(
        sa.select(s.step_kind, s.item_key).where(
            s.tenant_id == ex.tenant_id, s.workflow_id == ex.workflow_id, s.run_id == ex.run_id
        )
    )
    return KeySets(frozenset(members), frozenset((str(k), str(i)) for k, i in steps))


def _upsert(conn: sa.Connection, ex: ExecutionKey, values: dict[str, object]) -> None:
    t = discovery_execution_recoveries
    where = (t.c.tenant_id == ex.tenant_id, t.c.workflow_id == ex.workflow_id, t.c.run_id == ex.run_id)
    conn.execute(sa.delete(t).where(*where))  # portable upsert under the write lock
    conn.execute(
        sa.insert(t).values(tenant_id=ex.tenant_id, workflow_id=ex.workflow_id, run_id=ex.run_id, **values)
    )


def record_native_checkpoint(
    db: Database,
    ex: ExecutionKey,
    expected: KeySets,
    *,
    history_event_id: int | None,
    now: str,
    decoder_version: int = NATIVE_DECODER_VERSION,
) -> CoverageStatus:
    """The reconciler's checkpoint writer for a native run: verify, then publish ready or recovering.

    ``expected`` is what the exact Temporal history proves should exist.  The persisted sets are read
    in the same write transaction, so the proof and the rows it describes cannot drift apart.
    """
    if history_event_id is not None and history_event_id < 0:
        raise InvalidCheckpoint("history event id must be non-negative")
    with db.write() as conn:
        persisted = persisted_key_sets(conn, ex)
        matches = persisted == expected
        _upsert(
            conn,
            ex,
            {
                "decoder_version": decoder_version,
                "mode": "native",
                "history_event_id": history_event_id,
                "expected_members": len(expected.members),
                "expected_steps": len(expected.steps),
                "persisted_members": len(persisted.members),
                "persisted_steps": len(persisted.steps),
                "key_digest": expected.digest if matches else None,
                "error_code": None if matches else KEY_SET_MISMATCH,
                "status": "ready" if matches else "recovering",
                "updated_at": now,
            },
        )
    return "ready" if matches else "recovering"


# The events whose keys make up an execution's canonical sets.
_KEY_EVENTS: tuple[str, ...] = (
    "DiscoveryExecutionMemberLinked",
    "PipelineStepQueued",
    "PipelineStepStarted",
    "PipelineStepCompleted",
    "PipelineStepFailed",
)
_LOG_BATCH = 5000


def logged_key_sets(store: EventStore, conn: sa.Connection, ex: ExecutionKey) -> KeySets:
    """The key sets the append-only log proves for a native execution (every event carries the
    exact execution identity, so nothing is inferred)."""
    members: set[str] = set()
    steps: set[StepKey] = set()
    after = 0
    while batch := store.read_all_in(conn, after=after, limit=_LOG_BATCH, types=_KEY_EVENTS):
        for stored in batch:
            event = store.registry.decode(stored)
            ref = event.execution  # type: ignore[attr-defined]
            if (ref.tenant_id, ref.workflow_id, ref.temporal_run_id) != (
                ex.tenant_id,
                ex.workflow_id,
                ex.run_id,
            ):
                continue
            if isinstance(event, DiscoveryExecutionMemberLinked):
                members.add(event.job_id)
            else:
                steps.add((event.step_kind, event.item_key))  # type: ignore[attr-defined]
        after = batch[-1].position
    return KeySets(frozenset(members), frozenset(steps))


def verify_native_execution(
    store: EventStore, ex: ExecutionKey, *, history_event_id: int | None, now: str
) -> CoverageStatus:
    """The reconciler's native-mode step: expected = what the log proves; ready only if the read
    models hold exactly those keys (a projection that lags or lost a row publishes recovering)."""
    with store.db.read() as conn:
        expected = logged_key_sets(store, conn, ex)
    return record_native_checkpoint(store.db, ex, expected, history_event_id=history_event_id, now=now)


def record_retrying(db: Database, ex: ExecutionKey, error_code: str, *, now: str) -> None:
    """A refused ambiguous input or a transient failure: keep the counts, drop any proof, retry later."""
    code = bounded_code(error_code)
    t = discovery_execution_recoveries
    with db.write() as conn:
        persisted = persisted_key_sets(conn, ex)
        old = conn.execute(
            sa.select(t).where(
                t.c.tenant_id == ex.tenant_id, t.c.workflow_id == ex.workflow_id, t.c.run_id == ex.run_id
            )
        ).first()
        _upsert(
            conn,
            ex,
            {
                "decoder_version": old.decoder_version if old else NATIVE_DECODER_VERSION,
                "mode": old.mode if old else "native",
                "history_event_id": old.history_event_id if old else None,
                "expected_members": old.expected_members if old else 0,
                "expected_steps": old.expected_steps if old else 0,
                "persisted_members": len(persisted.members),
                "persisted_steps": len(persisted.steps),
                "key_digest": None,
                "error_code": code,
                "status": "retrying",
                "updated_at": now,
            },
        )


def read_coverage(conn: sa.Connection, ex: ExecutionKey) -> Coverage | None:
    """The checkpoint as it holds *now*: a ready row is re-verified against the durable rows."""
    t = discovery_execution_recoveries
    row = conn.execute(
        sa.select(t).where(
            t.c.tenant_id == ex.tenant_id, t.c.workflow_id == ex.workflow_id, t.c.run_id == ex.run_id
        )
    ).first()
    if row is None:
        return None
    status: CoverageStatus = row.status
    error_code: str | None = row.error_code
    persisted_members, persisted_steps = int(row.persisted_members), int(row.persisted_steps)
    verified = False
    if status == "ready":
        current = persisted_key_sets(conn, ex)
        persisted_members, persisted_steps = len(current.members), len(current.steps)
        verified = (
            persisted_members == row.expected_members
            and persisted_steps == row.expected_steps
            and row.key_digest is not None
            and current.digest == row.key_digest
        )
        if not verified:
            status, error_code = "recovering", PROOF_MISMATCH
    return Coverage(
        status=status,
        mode=row.mode,
        decoder_version=int(row.decoder_version),
        history_event_id=row.history_event_id,
        expected_members=int(row.expected_members),
        expected_steps=int(row.expected_steps),
        persisted_members=persisted_members,
        persisted_steps=persisted_steps,
        error_code=error_code,
        verified=verified,
    )
