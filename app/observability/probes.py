"""Readiness checks: can this process serve? Each check returns None when fine, or the reason
it is not (shown in the 503 body of ``/readyz``). Every check is bounded in time, so a database
that hangs (not just one that refuses) makes the process unready instead of the probe."""

from __future__ import annotations

import asyncio
import redis.asyncio
from sqlalchemy import text

PROBE_TIMEOUT = 2.0


async def database_problem(engine) -> str | None:
    """``SELECT 1`` through the app's own engine (sync engines run it off the event loop)."""
    try:
        if hasattr(engine, "sync_engine"):  # an AsyncEngine
            async def ping_async() -> None:
                async with engine.connect() as connection:
                    await connection.execute(text("SELECT 1"))
            await asyncio.wait_for(ping_async(), PROBE_TIMEOUT)
        else:
            def ping() -> None:
                with engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
            await asyncio.wait_for(asyncio.to_thread(ping), PROBE_TIMEOUT)
    except asyncio.TimeoutError:
        return f"database: no answer within {PROBE_TIMEOUT:g} s"
    except Exception as exc:  # any driver error means "not reachable"; the reason names it
        return f"database: {type(exc).__name__}: {_first_line(exc)}"
    return None


async def redis_problem(redis_url: str) -> str | None:
    """``PING`` over a fresh connection (so a broken pool cannot hide a Redis that is back, or
    one that is gone)."""
    client = redis.asyncio.from_url(redis_url, socket_connect_timeout=PROBE_TIMEOUT, socket_timeout=PROBE_TIMEOUT)
    try:
        await asyncio.wait_for(client.ping(), PROBE_TIMEOUT)
    except asyncio.TimeoutError:
        return f"redis: no answer within {PROBE_TIMEOUT:g} s"
    except Exception as exc:  # connection refused, auth failed, ...: the reason names it
        return f"redis: {type(exc).__name__}: {_first_line(exc)}"
    finally:
        await client.aclose()
    return None


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]
