"""``GET/POST/DELETE /v1/sources``: the sources Discover runs (ADR 0150).

``POST`` takes ``{kind, tokenOrUrl, name?, apiBase?}`` (a broad board, kind ``jobspy``, also
``keywords``, ``locations?``, ``resultsWanted?``, ``hoursOld?``): 201 with the source when added, 200 when the
same source was already there; bad input is a 422 ``invalid_source`` (or ``invalid_request`` for a
malformed body) and writes nothing.  ``DELETE /v1/sources/{id}``: 200, or 404 ``unknown_source``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from jobctrl.discovery import (
    InvalidSourceSpec,
    SourceView,
    UnknownSource,
    add_source,
    list_sources,
    remove_source,
)
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import Request, Wire, error_responses
from jobctrl.runtime.api.services import Services, services

router = APIRouter(prefix="/v1", tags=["sources"])
INVALID: dict[int | str, dict[str, Any]] = error_responses(422)


class SourceBody(Request):
    kind: str = Field(min_length=1, max_length=40)
    token_or_url: str = Field(min_length=1, max_length=2000)
    name: str | None = Field(default=None, max_length=200)
    api_base: str | None = Field(default=None, max_length=2000)
    # A broad-board search (kind ``jobspy``, ADR 0285).
    keywords: list[str] = Field(default_factory=list, max_length=20)
    locations: list[str] = Field(default_factory=list, max_length=20)
    results_wanted: int | None = None
    hours_old: int | None = None


class SourceOut(Wire):
    source_id: str
    kind: str
    token_or_url: str
    board: str
    name: str
    base_url: str
    api_base: str | None
    state: str
    policy_id: str
    robots: str
    keywords: list[str] = []
    locations: list[str] = []
    results_wanted: int | None = None
    hours_old: int | None = None


class SourceList(Wire):
    items: list[SourceOut]


class RemovedSource(Wire):
    source_id: str
    removed: bool


def _out(v: SourceView) -> SourceOut:
    return SourceOut(
        source_id=v.source_id, kind=v.family, token_or_url=v.locator, board=v.board, name=v.name,
        base_url=v.base_url, api_base=v.api_base, state=v.state, policy_id=v.policy_id, robots=v.robots,
        keywords=list(v.keywords), locations=list(v.locations), results_wanted=v.results_wanted,
        hours_old=v.hours_old,
    )  # fmt: skip


@router.get("/sources", response_model=SourceList)
async def get_sources(svc: Annotated[Services, Depends(services)]) -> SourceList:
    views = await run_in_threadpool(list_sources, svc.store)
    return SourceList(items=[_out(v) for v in views])


@router.post("/sources", response_model=SourceOut, status_code=201, responses=INVALID)
async def post_source(body: SourceBody, svc: Annotated[Services, Depends(services)]) -> JSONResponse:
    try:
        added = await run_in_threadpool(
            lambda: add_source(
                svc.store,
                body.kind,
                body.token_or_url,
                name=body.name,
                api_base=body.api_base,
                clock=svc.clock,
                tenant_id=svc.tenant_id,
                keywords=body.keywords,
                locations=body.locations,
                results_wanted=body.results_wanted,
                hours_old=body.hours_old,
            )
        )
    except InvalidSourceSpec as exc:
        raise ApiError(422, exc.code, exc.message) from None
    payload = _out(added.source).model_dump(by_alias=True)
    return JSONResponse(payload, status_code=201 if added.created else 200)


@router.delete("/sources/{source_id}", response_model=RemovedSource, responses=error_responses(404))
async def delete_source(source_id: str, svc: Annotated[Services, Depends(services)]) -> RemovedSource:
    try:
        removed = await run_in_threadpool(
            lambda: remove_source(svc.store, source_id, clock=svc.clock, tenant_id=svc.tenant_id)
        )
    except UnknownSource as exc:
        raise ApiError(404, exc.code, exc.message) from None
    return RemovedSource(source_id=source_id, removed=removed)
