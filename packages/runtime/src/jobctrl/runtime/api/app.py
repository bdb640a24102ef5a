"""The API composition root: ``create_app`` wires the database, the store, the SSE hub, the Temporal
port and every router.  The OpenAPI document is published at ``/openapi.json`` (docs at ``/docs``).

The API starts without Temporal: with no ``temporal_address`` (or ``control``) the endpoints that need
it answer 503.  With ``run_projections`` a background thread keeps the read models caught up.
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Header, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from jobctrl.contact import PersonalDataVault
from jobctrl.domain_types import registry
from jobctrl.kernel import heap
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.errors import StorageUnavailable
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.orchestration import create_orchestration_tables
from jobctrl.projections.migrate import migrate
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.runtime.api import (
    applications,
    cancel_run,
    contact_research,
    contacts,
    follow_up_snooze,
    import_url,
    material_text,
    outreach,
    outreach_threads,
    pages,
    reads,
    retry_stage,
    review_decision,
    scores,
    settings_profile,
    sources,
    start_discovery,
    verification,
)
from jobctrl.runtime.api.errors import ApiError, install_error_handlers, storage_error_body
from jobctrl.runtime.api.guard import (
    DEFAULT_MAX_BODY_BYTES,
    LOOPBACK_HOSTS,
    SESSION_COOKIE,
    SESSION_TTL_S,
    STREAM_PATH,
    GuardConfig,
    RequestGuard,
    Sessions,
    checked_token,
    redact_access_log,
)
from jobctrl.runtime.api.hub import EventHub
from jobctrl.runtime.api.models import error_responses
from jobctrl.runtime.api.operations import router as operations_router
from jobctrl.runtime.api.services import Services, services
from jobctrl.runtime.api.sse import EventStreamResponse, event_stream, parse_resume_point
from jobctrl.runtime.api.sse_direct import RAW_SEND, H11Writer
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl, WorkflowControl
from jobctrl.runtime.storage import open_configured_database
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table


@dataclass
class ApiConfig:
    database_url: str | None = None  # default: the configured database (jobctrl.runtime.storage)
    sse_poll_s: float = float(os.environ.get("JOBCTRL_API_SSE_POLL_MS", "250")) / 1000
    keepalive_s: float = 15.0
    heartbeat_s: float = 30.0
    queue_batches: int = 64
    api_token: str | None = None
    temporal_address: str | None = None
    temporal_namespace: str = "default"
    control: WorkflowControl | None = None  # overrides temporal_address (tests inject their adapter)
    clock: Clock = field(default_factory=SystemClock)
    run_projections: bool = False
    tenant_id: str = LOCAL_TENANT  # the one tenant this API serves and writes under
    allowed_hosts: frozenset[str] = LOOPBACK_HOSTS  # Host names this API answers to (else 421)
    max_body_bytes: int = int(os.environ.get("JOBCTRL_API_MAX_BODY_BYTES", str(DEFAULT_MAX_BODY_BYTES)))
    artifacts_root: Path | None = None  # rendered PDFs (default: $JOBCTRL_HOME/artifacts)
    task_queue: str | None = None  # apply workflows started by a review (default: the saved setting)
    # The process is the server's own (``jobctrl serve``): once started, freeze its start-up heap so a
    # full collection walks only what it made since, not the imports (ADR 0450, as a worker: 0426).
    freeze_startup: bool = False


class StorageGate:
    """Every route but ``/v1/health`` answers 503 ``storage_unavailable`` once the database this API
    opened is gone or replaced (ADR 0102): never a write to, or a read from, a database nobody meant."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = getattr(scope.get("app"), "state", None) if scope["type"] == "http" else None
        svc: Services | None = getattr(state, "services", None)
        if svc is not None and scope["path"] != "/v1/health":
            try:
                svc.db.verify()
            except StorageUnavailable as exc:
                await JSONResponse(storage_error_body(exc), status_code=503)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _App(FastAPI):
    """Keeps the server's own ``send`` in the scope (``RAW_SEND``), before any middleware wraps it,
    for the SSE route's direct writer (ADR 0385)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope[RAW_SEND] = send
        await super().__call__(scope, receive, send)


def _control(cfg: ApiConfig) -> WorkflowControl | None:
    if cfg.control is not None:
        return cfg.control
    if cfg.temporal_address:
        return TemporalWorkflowControl(cfg.temporal_address, cfg.temporal_namespace)
    return None


def create_app(config: ApiConfig | None = None) -> FastAPI:
    """The one composition root of the HTTP API."""
    cfg = config or ApiConfig()
    token = checked_token(cfg.api_token)  # a weak or placeholder token refuses to start
    sessions = Sessions()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_access_log()  # uvicorn has configured its loggers by now
        db = open_configured_database(url=cfg.database_url)
        store = EventStore(db, registry())
        store.create_schema()
        migrate(db)  # the read models every read route queries
        create_orchestration_tables(db)
        create_heartbeat_table(db)
        PersonalDataVault(db).create_schema()  # the sealed candidates a contact review opens
        # The beat wakes idle clients for their keep-alive and heartbeat, at half the shorter period.
        beat = min(cfg.keepalive_s, cfg.heartbeat_s) / 2
        hub = EventHub(store, poll_interval=cfg.sse_poll_s, queue_batches=cfg.queue_batches, beat_s=beat)
        await hub.start()
        app.state.services = Services(
            db=db,
            store=store,
            hub=hub,
            clock=cfg.clock,
            control=_control(cfg),
            tenant_id=cfg.tenant_id,
            artifacts_root=cfg.artifacts_root or jobctrl_home() / "artifacts",
            task_queue=cfg.task_queue,
        )
        runner: ProjectionRunner | None = None
        thread: threading.Thread | None = None
        if cfg.run_projections:
            runner = ProjectionRunner(db, registry(), poll_interval=cfg.sse_poll_s)
            runner.prepare()
            thread = threading.Thread(target=runner.run, name="api-projections", daemon=True)
            thread.start()
        if cfg.freeze_startup:
            heap.freeze_startup()
        try:
            yield
        finally:
            if runner is not None and thread is not None:
                runner.stop()
                thread.join(timeout=10)
            await hub.stop()
            db.dispose()

    app = _App(title="JobCtrl", version="0.1.0", lifespan=lifespan)
    install_error_handlers(app)

    app.add_middleware(StorageGate)
    app.add_middleware(  # outermost: Host, token and size come before anything else
        RequestGuard,
        config=GuardConfig(
            hosts=cfg.allowed_hosts, token=token, max_body_bytes=cfg.max_body_bytes, sessions=sessions
        ),
    )

    for router in (reads.router, settings_profile.router, review_decision.router, retry_stage.router,
                   cancel_run.router, start_discovery.router, operations_router,
                   applications.router, pages.router, sources.router,
                   contact_research.router, contacts.router, outreach.router, outreach_threads.router,
                   scores.router, import_url.router, verification.router,
                   follow_up_snooze.router, material_text.router):  # fmt: skip
        app.include_router(router)

    @app.get("/v1/health", tags=["system"], responses=error_responses(503))
    async def health(request: Request) -> JSONResponse:
        """``ok`` only when a probe write commits on the database this API opened (and a SQLite
        volume has space); else 503 with the storage error and its reason."""
        svc = services(request)
        failure = await run_in_threadpool(svc.db.health)
        if failure is not None:
            body: dict[str, object] = {"status": "unavailable", "database": svc.db.dialect}
            return JSONResponse({**body, **storage_error_body(failure)}, status_code=503)
        return JSONResponse({"status": "ok", "database": svc.db.dialect, "head": svc.hub.head})

    @app.post("/v1/session", status_code=204, tags=["system"])
    async def open_session(request: Request) -> Response:
        """Trade the bearer token (checked by the guard) for a session cookie that the dashboard's
        ``EventSource`` sends to ``/v1/events/stream``: HttpOnly, SameSite=Strict, that path only."""
        response = Response(status_code=204)
        response.set_cookie(
            SESSION_COOKIE,
            sessions.open(),
            max_age=SESSION_TTL_S,
            path=STREAM_PATH,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return response

    @app.get("/v1/event-types")
    async def event_types() -> list[str]:
        return list(registry().names)

    @app.get("/v1/events/stream", response_class=StreamingResponse)
    async def stream(
        request: Request,
        since: str | None = Query(default=None, description="resume after this log position"),
        last_event_id: str | None = Header(default=None, alias="Last-Event-ID"),
    ) -> StreamingResponse:
        try:
            after = parse_resume_point(last_event_id, since)
        except ValueError as exc:
            raise ApiError(400, "invalid_resume_point", str(exc)) from None
        svc = services(request)
        writer = H11Writer.of(request.scope)  # the hub writes live batches itself (ADR 0385)
        body = event_stream(
            svc.hub,
            after,
            keepalive_s=cfg.keepalive_s,
            heartbeat_s=cfg.heartbeat_s,
            tenant_id=svc.tenant_id,
            writer=writer,
        )
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return EventStreamResponse(body, writer, headers)

    return app
