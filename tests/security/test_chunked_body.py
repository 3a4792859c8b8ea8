"""A request body sent in chunks (no Content-Length) past ``MAX_FRAME_BYTES`` is refused with the
documented 413 ``too_large``, like one that declares its length, not 400 "error parsing the body"."""

from __future__ import annotations

import httpx


def chunks(total: int, size: int = 4096):
    sent = 0
    yield b'{"name": "'
    while sent < total:
        yield b"a" * size
        sent += size
    yield b'"}'


def test_a_chunked_body_over_the_limit_is_413(server):
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        response = http.post("/api/players", content=chunks(20 * 1024),
                             headers={"content-type": "application/json"})
        assert response.request.headers.get("transfer-encoding") == "chunked"
        assert response.status_code == 413, response.text
        assert response.json()["error"]["code"] == "too_large"
        declared = http.post("/api/players", content=b"a" * (20 * 1024), headers={"content-type": "application/json"})
        assert declared.status_code == 413 and declared.json()["error"]["code"] == "too_large"
        # A chunked body under the limit still works.
        small = http.post("/api/players", content=iter([b'{"name": ', b'"Chunky"}']),
                          headers={"content-type": "application/json"})
        assert small.status_code in (200, 201), small.text
