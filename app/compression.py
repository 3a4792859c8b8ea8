"""Compressed HTTP answers (Starlette's GZipMiddleware): pages, scripts, stylesheets, SVG and JSON
larger than 500 bytes go out gzipped to a browser that accepts it.

Never the live paths: WebSockets are not HTTP answers (the middleware passes them through; their
own compression is ``WS_PER_MESSAGE_DEFLATE``), and the NDJSON stream (``application/x-ndjson``)
is left as it is, so each line leaves the moment it is written, whatever a compressor would buffer.
Level 6 rather than 9: nearly the same size for text, a fraction of the CPU on the event loop."""

from __future__ import annotations

from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

STREAMS = ("application/x-ndjson",)


def install(app) -> None:
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6,
                       exclude_content_types=DEFAULT_EXCLUDED_CONTENT_TYPES + STREAMS)
