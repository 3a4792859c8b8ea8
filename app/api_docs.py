"""The interactive API documentation (``/docs``: Swagger UI, ``/redoc``: ReDoc) served from our own
origin: the pages carry the bearer tokens' origin, so no script from a CDN (a floating ``@5``
version, no integrity) may run there. The bundles are vendored under ``static/vendor/`` at pinned
versions (``static/vendor/README.md``) and loaded with Subresource Integrity; the pages have no
inline script (Swagger UI starts from ``static/api-docs.js``), so they get the site's strict
script policy (app/security_headers.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

SWAGGER = "/static/vendor/swagger-ui-5.35.0"
REDOC = "/static/vendor/redoc-2.5.4"
# sha384 of each vendored file (openssl dgst -sha384 -binary FILE | base64); tests recompute them.
INTEGRITY = {
    f"{SWAGGER}/swagger-ui-bundle.js": "sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9",
    f"{SWAGGER}/swagger-ui.css": "sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I",
    f"{REDOC}/redoc.standalone.js": "sha384-w447zOpYfw/1Tv/5AK9NfHTlQIqE3RVR6KY62jCyy9zNDgO64cMwGGP1Fj0zJVf5",
}


def _page(request: Request, title: str, head: str, body: str) -> HTMLResponse:
    """The page, its /static/ references fingerprinted like every page's (app/assets.py)."""
    return HTMLResponse(request.app.state.assets.rewrite(f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/static/favicon.ico">
{head}
</head>
<body>
{body}
</body>
</html>
"""))


def _script(src: str) -> str:
    return f'<script src="{src}" integrity="{INTEGRITY[src]}"></script>'


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    css = f"{SWAGGER}/swagger-ui.css"
    return _page(request, "Asobiba API", f'<link rel="stylesheet" href="{css}" integrity="{INTEGRITY[css]}">',
                 '<div id="swagger-ui"></div>\n' + _script(f"{SWAGGER}/swagger-ui-bundle.js")
                 + '\n<script src="/static/api-docs.js"></script>')


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    return _page(request, "Asobiba API", "", '<redoc spec-url="/openapi.json"></redoc>\n' + _script(f"{REDOC}/redoc.standalone.js"))
