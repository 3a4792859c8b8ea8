"""The database is unreachable (connection refused or reset, pool exhausted for too long): every
such failure is answered ``503 unavailable`` with ``Retry-After`` (REST) or an ``error``
``unavailable`` (socket), never a 500. Nothing was applied: an action becomes part of the match
only once its log entry is committed, and views are pushed only after that.

Recovery needs nobody: PostgreSQL connections are checked before use (``pool_pre_ping``), so the
first request after the database returns gets a fresh connection."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.errors import ApiError, api_error_handler

RETRY_AFTER_SECONDS = 5


def is_outage(exc: BaseException) -> bool:
    """A failure to reach the database, as opposed to a statement the database refused."""
    return isinstance(exc, (OperationalError, InterfaceError, PoolTimeout)) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated)


def unavailable() -> ApiError:
    error = ApiError(503, "unavailable", "the database cannot be reached right now; nothing changed, "
                                         f"try again in {RETRY_AFTER_SECONDS} s")
    error.headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return error


async def database_error_handler(request: Request, exc: Exception):
    if not is_outage(exc):
        raise exc
    return await api_error_handler(request, unavailable())


def install(app) -> None:
    app.add_exception_handler(DBAPIError, database_error_handler)
    app.add_exception_handler(PoolTimeout, database_error_handler)
