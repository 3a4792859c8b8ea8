"""Probes for load balancers and orchestrators: ``GET /healthz`` (the process is alive) and
``GET /readyz`` (it can serve now: database reachable, Redis reachable when ``REDIS_URL`` is set,
not shutting down; otherwise 503 with the reasons). Neither needs a token; neither says more than
ok / the reason."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.observability.middleware import expected_unavailable
from app.observability.probes import database_problem, redis_problem

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> dict:
    return {"status": "ok"}


@router.get("/readyz", summary="Readiness: 200 when this process can serve, 503 with the reasons otherwise",
            responses={503: {"description": '`{"status": "unavailable", "reasons": ["shutting down", ...]}`'}})
async def readyz(request: Request):
    state = request.app.state
    reasons = []
    if state.lifecycle.shutting_down:
        reasons.append("shutting down")
        expected_unavailable(request.scope)  # the probe doing its job: an info line, not an error
    else:
        problem = await database_problem(state.db_engine)
        if problem:
            reasons.append(problem)
        if state.settings.redis_url:
            problem = await redis_problem(state.settings.redis_url)
            if problem:
                reasons.append(problem)
    if reasons:
        return JSONResponse(status_code=503, content={"status": "unavailable", "reasons": reasons})
    return {"status": "ready"}
