"""The API composition root: ``create_app`` wires the database, the store and the SSE hub."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.runtime.api.errors import ApiError, error_body, install_error_handlers
from jobctrl.runtime.api.hub import EventHub
from jobctrl.runtime.api.operations import router as operations_router
from jobctrl.runtime.api.sse import event_stream, parse_resume_point

DASHBOARD = Path(__file__).with_name("static") / "dashboard.html"


@dataclass
class ApiConfig:
    database_url: str | None = None
    sse_poll_s: float = float(os.environ.get("JOBCTRL_API_SSE_POLL_MS", "250")) / 1000
    keepalive_s: float = 15.0
    heartbeat_s: float = 30.0
    queue_batches: int = 64
    api_token: str | None = None


@dataclass
class Services:
    db: Database
    store: EventStore
    hub: EventHub


def create_app(config: ApiConfig | None = None) -> FastAPI:
    cfg = config or ApiConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = open_database(cfg.database_url)
        store = EventStore(db, registry())
        store.create_schema()
        hub = EventHub(store, poll_interval=cfg.sse_poll_s, queue_batches=cfg.queue_batches)
        await hub.start()
        app.state.services = Services(db=db, store=store, hub=hub)
        try:
            yield
        finally:
            await hub.stop()
            db.dispose()

    app = FastAPI(title="JobCtrl", version="0.1.0", lifespan=lifespan)
    install_error_handlers(app)
    app.include_router(operations_router)

    if cfg.api_token:
        expected = f"Bearer {cfg.api_token}"

        @app.middleware("http")
        async def require_token(request: Request, call_next: Any) -> Any:
            presented = (
                request.headers.get("authorization") or f"Bearer {request.query_params.get('access_token')}"
            )
            if request.url.path not in ("/v1/health", "/") and presented != expected:
                return JSONResponse(error_body("unauthorized", "a valid bearer token is required"), 401)
            return await call_next(request)

    def services(request: Request) -> Services:
        result: Services = request.app.state.services
        return result

    @app.get("/v1/health")
    async def health(request: Request) -> dict[str, object]:
        svc = services(request)
        return {"status": "ok", "database": svc.db.dialect, "head": svc.hub.head}

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def dashboard() -> HTMLResponse:
        return HTMLResponse(DASHBOARD.read_text(encoding="utf-8"))

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
        body = event_stream(svc.hub, after, keepalive_s=cfg.keepalive_s, heartbeat_s=cfg.heartbeat_s)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(body, media_type="text/event-stream", headers=headers)

    return app
