"""One error type for the API: a stable ``code``, a human ``message`` and an HTTP status.

The same codes are used on the WebSocket (``{"type": "error", "code", "message"}``)."""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


def not_found(what: str, key: str) -> ApiError:
    return ApiError(404, "not_found", f"no {what} with id {key!r}")


async def api_error_handler(_request: Request, exc: ApiError) -> JSONResponse:
    return JSONResponse(status_code=exc.status, content={"error": exc.as_dict()})


async def validation_error_handler(_request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
    return JSONResponse(status_code=422, content={"error": {"code": "invalid_request", "message": problems}})
