"""``discovery_execution_recoveries``: the durable recovery checkpoint of one Discover execution.

Keyed by (tenant, Discover workflow id, Temporal run id).  It records the decoder version, the mode
(``native`` / ``reconstructed``), the history-event watermark, the expected and persisted counts of
the two canonical key sets (membership keys in ``discovery_execution_jobs``, step keys in
``pipeline_step_projections``), a digest of both sets and a bounded error code.

Invariant: ``ready`` is *earned*, never inferred.  ``record_native_checkpoint`` writes ``ready``
only when the expected key sets equal the persisted ones; ``read_coverage`` compares the proof with
the persisted sets' counts and incremental digests on every read (two primary-key reads of the
``*_digests`` tables the fold engine keeps with the rows, ADR 0132) and reports a ready row whose
counts or digest no longer match as ``recovering`` (``proof_mismatch``).  Row counts alone, a
terminal workflow or runtime telemetry never promote a checkpoint.

A native ready proof is advanced by ``advance_native_proofs`` in the same transaction as each new
canonical key the incremental fold writes, so a later member or step of a verified execution never
shows a one-row-ahead ``recovering`` snapshot.  Out of scope (ADR 0066): the Temporal-history
decoder for legacy (``reconstructed``) runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import DiscoveryExecutionMemberLinked
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import Database
from jobctrl.kernel.text import bounded_code
from jobctrl.projections.keydigest import EMPTY, combine, member_term, of_terms, shift, step_term
from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
    discovery_execution_member_digests,
)
from jobctrl.projections.read_models.pipeline_steps import (
    pipeline_step_key_digests,
    pipeline_step_projections,
)
from jobctrl.projections.rowcache import DigestChange
from jobctrl.projections.schema import OPERATIONS_WATERMARK, execution_key_columns, metadata
from jobctrl.projections.watermarks import read_watermark

CoverageStatus = Literal["ready", "recovering", "retrying", "incomplete"]
Mode = Literal["native", "reconstructed"]
NATIVE_DECODER_VERSION = 3
PROOF_MISMATCH = "proof_mismatch"
KEY_SET_MISMATCH = "key_set_mismatch"

discovery_execution_recoveries = sa.Table(
    "discovery_execution_recoveries",
    metadata,
    *execution_key_columns(),
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


class Coverage(msgspec.Struct, frozen=True, rename="camel"):
    """One execution's projection coverage as read, and as the operations API publishes it (camelCase)."""

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
    """The incremental digest (``keydigest``) of both canonical key sets."""
    return combine(of_terms(member_term(j) for j in members), of_terms(step_term(k, i) for k, i in steps))


@dataclass(frozen=True)
class PersistedProof:
    """The persisted sets' counts and digest, as the fold engine keeps them (O(1) to read)."""

    members: int
    steps: int
    digest: str


def _digest_row(conn: sa.Connection, table: sa.Table, ex: ExecutionKey) -> tuple[int, str]:
    row = conn.execute(
        sa.select(table.c.key_count, table.c.key_digest).where(
            table.c.tenant_id == ex.tenant_id,
            table.c.workflow_id == ex.workflow_id,
            table.c.run_id == ex.run_id,
        )
    ).first()
    return (0, EMPTY) if row is None else (int(row.key_count), str(row.key_digest))


def persisted_proof(conn: sa.Connection, ex: ExecutionKey) -> PersistedProof:
    members, member_digest = _digest_row(conn, discovery_execution_member_digests, ex)
    steps, step_digest = _digest_row(conn, pipeline_step_key_digests, ex)
    return PersistedProof(members, steps, combine(member_digest, step_digest))


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
        return _record_native(conn, ex, expected, history_event_id, now, decoder_version)


def _record_native(
    conn: sa.Connection,
    ex: ExecutionKey,
    expected: KeySets,
    history_event_id: int | None,
    now: str,
    decoder_version: int = NATIVE_DECODER_VERSION,
    terminal_code: str | None = None,
) -> CoverageStatus:
    persisted = persisted_proof(conn, ex)
    digest = expected.digest
    matches = (persisted.members, persisted.steps, persisted.digest) == (
        len(expected.members),
        len(expected.steps),
        digest,
    )
    # A verified execution that ended before it identified every targeted job is incomplete: its
    # exact partial sets are kept, the reason is recorded, nothing is retried or invented.
    status: CoverageStatus = ("incomplete" if terminal_code else "ready") if matches else "recovering"
    _upsert(
        conn,
        ex,
        {
            "decoder_version": decoder_version,
            "mode": "native",
            "history_event_id": history_event_id,
            "expected_members": len(expected.members),
            "expected_steps": len(expected.steps),
            "persisted_members": persisted.members,
            "persisted_steps": persisted.steps,
            "key_digest": digest if matches else None,
            "error_code": (bounded_code(terminal_code) if terminal_code else None)
            if matches
            else KEY_SET_MISMATCH,
            "status": status,
            "updated_at": now,
        },
    )
    return status


def advance_native_proofs(conn: sa.Connection, changes: Sequence[DigestChange]) -> None:
    """The fold engine's hook (incremental folds only): a new canonical key of an execution whose
    native proof is ready advances that proof in the same transaction as the key's write."""
    t = discovery_execution_recoveries
    deltas: dict[tuple[str, str, str], list[tuple[str, str, int]]] = {}
    for table, group, term, sign in changes:
        deltas.setdefault((group[0], group[1], group[2]), []).append((table, term, sign))
    for (tenant, workflow, run), items in deltas.items():
        where = (t.c.tenant_id == tenant, t.c.workflow_id == workflow, t.c.run_id == run)
        row = conn.execute(sa.select(t).where(*where)).first()
        if row is None or row.mode != "native" or row.status != "ready" or row.key_digest is None:
            continue  # only a verified native proof advances; anything else waits for a verification
        members, steps, digest = int(row.expected_members), int(row.expected_steps), str(row.key_digest)
        for table, term, sign in items:
            if table == discovery_execution_member_digests.name:
                members += sign
            else:
                steps += sign
            digest = shift(digest, term, sign)
        conn.execute(
            sa.update(t)
            .where(*where)
            .values(
                expected_members=members,
                expected_steps=steps,
                persisted_members=members,
                persisted_steps=steps,
                key_digest=digest,
            )
        )


# The events whose keys make up an execution's canonical sets.
_KEY_EVENTS: tuple[str, ...] = (
    "DiscoveryExecutionMemberLinked",
    "PipelineStepQueued",
    "PipelineStepStarted",
    "PipelineStepCompleted",
    "PipelineStepFailed",
)
_LOG_BATCH = 5000


def logged_key_sets(
    store: EventStore, conn: sa.Connection, ex: ExecutionKey, up_to: int | None = None
) -> KeySets:
    """The key sets the append-only log proves for a native execution (every event carries the
    exact execution identity, so nothing is inferred), up to position ``up_to`` when given."""
    members: set[str] = set()
    steps: set[StepKey] = set()
    after = 0
    while batch := store.read_all_in(conn, after=after, limit=_LOG_BATCH, types=_KEY_EVENTS):
        if up_to is not None:
            batch = [s for s in batch if s.position <= up_to]
            if not batch:
                break
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
    store: EventStore,
    ex: ExecutionKey,
    *,
    history_event_id: int | None,
    now: str,
    terminal_code: str | None = None,
    at_watermark: bool = False,
) -> CoverageStatus:
    """The reconciler's native-mode step: expected = what the log proves; ready (or incomplete, with
    ``terminal_code``) only if the read models hold exactly those keys (a row the read model lost
    publishes recovering).  The log is read and the checkpoint written in one transaction.

    ``at_watermark``: read the log only up to the projection watermark read in that transaction, so
    a projection that merely lags is compared with the log it has folded (the runtime's writer);
    without it the whole log is the evidence and a lagging projection publishes recovering."""
    with store.db.write() as conn:
        up_to = read_watermark(conn, OPERATIONS_WATERMARK) if at_watermark else None
        expected = logged_key_sets(store, conn, ex, up_to)
        return _record_native(conn, ex, expected, history_event_id, now, terminal_code=terminal_code)


def record_retrying(db: Database, ex: ExecutionKey, error_code: str, *, now: str) -> None:
    """A refused ambiguous input or a transient failure: keep the counts, drop any proof, retry later."""
    code = bounded_code(error_code)
    t = discovery_execution_recoveries
    with db.write() as conn:
        persisted = persisted_proof(conn, ex)
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
                "persisted_members": persisted.members,
                "persisted_steps": persisted.steps,
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
    if status in ("ready", "incomplete"):
        current = persisted_proof(conn, ex)  # O(1): the digests the fold keeps with the rows
        persisted_members, persisted_steps = current.members, current.steps
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
