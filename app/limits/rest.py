"""Rate limits on REST routes: ``dependencies=[rate_limit("rooms")]`` checks the caller's bearer
token bucket (if any) and IP bucket before the route runs; refusals are 429 with ``Retry-After``."""

from __future__ import annotations

from fastapi import Depends, Request

from app.limits.limiter import client_keys


def _token(request: Request) -> str | None:
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def rate_limit(name: str):
    async def check(request: Request) -> None:
        ip = request.client.host if request.client else None
        await request.app.state.limiter.check(name, *client_keys(ip, _token(request)))

    return Depends(check)
