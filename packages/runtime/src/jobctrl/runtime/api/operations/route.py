"""The FastAPI route serving ``GET /v1/pipeline/operations``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import msgspec
from fastapi import APIRouter, Request, Response

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import Database
from jobctrl.orchestration import create_orchestration_tables, ledger_with_settings
from jobctrl.projections.migrate import migrate
from jobctrl.runtime.api.operations.inventory import database_identity
from jobctrl.runtime.api.operations.models import SnapshotInputs, TotalsCache
from jobctrl.runtime.api.operations.snapshot import read_operations
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table

_encoder = msgspec.json.Encoder()
router = APIRouter()


def budget_blocked(db: Database, tenant_id: str = "local", clock: Clock | None = None) -> bool:
    """Work that spends LLM budget is blocked while today's spend ledger is at its ceiling."""
    return ledger_with_settings(db, clock=clock).status(tenant_id).exceeded


def ensure_operations_schema(db: Database) -> None:
    """Migrate-before-use for the tables the snapshot reads (idempotent)."""
    migrate(db)
    create_heartbeat_table(db)
    create_orchestration_tables(db)


@router.get("/v1/pipeline/operations", response_class=Response)
async def pipeline_operations(request: Request) -> Response:
    """The operations snapshot (spec "Pipeline Operations Snapshot"; runtime reference §6.4)."""
    db = request.app.state.services.db
    tenant_id = request.app.state.services.tenant_id
    state = request.app.state
    cache = getattr(state, "operations_totals_cache", None)
    if cache is None:
        cache = state.operations_totals_cache = TotalsCache()

    def build() -> bytes:
        if not getattr(state, "operations_schema_ready", False):
            ensure_operations_schema(db)
            state.operations_schema_ready = True
        now = datetime.now(UTC)
        budget = budget_blocked(db, tenant_id)
        with db.read() as conn:
            inputs = SnapshotInputs(
                now=now, tenant_id=tenant_id, db_path=database_identity(db), budget_exceeded=budget,
                totals_cache=cache,
            )  # fmt: skip
            snap = read_operations(conn, inputs)
        return _encoder.encode(snap)

    body = await asyncio.to_thread(build)
    return Response(content=body, media_type="application/json")
