"""``GET /metrics``: this process's metrics in the Prometheus text format, for a bearer token
equal to ``METRICS_TOKEN`` or ``ADMIN_TOKEN`` (with neither set, metrics are off: 403)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response

from app.deps import SettingsDep, bearer_token, check_secret
from app.errors import ApiError
from app.observability.metrics import exposition

router = APIRouter(tags=["operations"])


@router.get("/metrics", summary="Prometheus metrics of this process (bearer METRICS_TOKEN or ADMIN_TOKEN)",
            response_class=Response, responses={
                200: {"content": {"text/plain": {}}, "description": "Prometheus text exposition format"},
                403: {"description": "`not_allowed`: no or wrong token, or metrics are off"}})
async def metrics(request: Request, settings: SettingsDep,
                  authorization: Annotated[str | None, Header()] = None) -> Response:
    token = bearer_token(authorization)
    allowed = [secret for secret in (settings.metrics_token, settings.admin_token) if secret]
    if not allowed:
        raise ApiError(403, "not_allowed", "metrics are off: set METRICS_TOKEN (or ADMIN_TOKEN)")
    if not token or not await check_secret(request, token, *allowed):
        raise ApiError(403, "not_allowed", "this needs the metrics token (METRICS_TOKEN) or the admin token")
    body, content_type = exposition()
    return Response(body, media_type=content_type)
