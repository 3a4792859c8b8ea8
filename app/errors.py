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
        self.headers: dict[str, str] | None = None  # e.g. Retry-After on 429

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


def seat_name(seat: int) -> str:
    """How a message a person reads names a seat: 1-based, as the room page numbers them
    (the API's ``seat`` fields stay 0-based indices)."""
    return f"Seat {seat + 1}"


def bad_seat(wanted: int, num_seats: int) -> ApiError:
    return ApiError(422, "bad_seat", f"seat index {wanted} does not exist: this room has "
                                     f"{seat_name(0)}–{seat_name(num_seats - 1)} (indices 0–{num_seats - 1})")


def not_found(what: str, key: str) -> ApiError:
    return ApiError(404, "not_found", f"no {what} with id {key!r}")


async def api_error_handler(_request: Request, exc: ApiError) -> JSONResponse:
    return JSONResponse(status_code=exc.status, content={"error": exc.as_dict()}, headers=exc.headers)


async def validation_error_handler(_request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
    return JSONResponse(status_code=422, content={"error": {"code": "invalid_request", "message": problems}})


# Starlette's own refusals (a body it could not parse, a method a route does not take) as API errors.
_HTTP_CODES = {400: "malformed", 405: "method_not_allowed", 413: "too_large"}


def http_error_response(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """``{"error": {"code", "message"}}`` for an error raised by the framework rather than by us
    (e.g. a body nested too deeply for the JSON parser is its 400 "error parsing the body")."""
    code = _HTTP_CODES.get(status, f"http_{status}")
    message = "the body is not JSON the server can read (invalid or nested too deeply)" if code == "malformed" else detail
    return JSONResponse(status_code=status, content={"error": {"code": code, "message": message}}, headers=headers)
