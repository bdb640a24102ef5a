"""Typed JSON error bodies: ``{"error": {"code": ..., "message": ...}}`` with a matching status."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from jobctrl.kernel.errors import JobCtrlError, StorageUnavailable


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, fields: list[tuple[str, str]] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields  # (field path, reason) of each invalid field, when known


def error_body(
    code: str, message: str, fields: list[tuple[str, str]] | None = None
) -> dict[str, dict[str, object]]:
    body: dict[str, object] = {"code": code, "message": message}
    if fields:
        body["fields"] = [{"path": path, "reason": reason} for path, reason in fields]
    return {"error": body}


def storage_error_body(exc: StorageUnavailable) -> dict[str, dict[str, object]]:
    """``storage_unavailable`` with its ``reason`` (missing, replaced, read_only, disk_full, unreachable)."""
    body = error_body(exc.code, exc.message)
    body["error"]["reason"] = exc.reason
    return body


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message, exc.fields), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse(
            error_body("invalid_request", f"{where}: {first.get('msg', 'invalid')}"), status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(StorageUnavailable)
    async def _storage(_: Request, exc: StorageUnavailable) -> JSONResponse:
        return JSONResponse(storage_error_body(exc), status_code=503)

    @app.exception_handler(JobCtrlError)
    async def _domain(_: Request, exc: JobCtrlError) -> JSONResponse:
        status = 503 if exc.retryable else 409
        return JSONResponse(error_body(exc.code, exc.message), status_code=status)
