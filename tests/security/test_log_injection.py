"""A client cannot forge log lines: ``%0d%0a`` (and other control characters) in a path reach the
text log escaped, on the line of the request that carried them, never as a line of their own."""

from __future__ import annotations

import re
import time

import httpx

from tests.support.server import ServerProcess

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO |WARNING|ERROR|CRITICAL) ")
FORGED = "2026-01-01T00:00:00.000Z INFO  asobiba.http  POST /api/accounts/logout-all 200"


def test_control_characters_in_a_path_cannot_forge_a_log_line(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'logs.db'}", env={"LOG_FORMAT": "text"})
    server.start()
    try:
        forged = FORGED.replace(" ", "%20")
        paths = [f"/api/rooms/abc%0d%0a{forged}", f"/nothing%0a{forged}", f"/x%1b[2J%e2%80%a8{forged}",
                 f"/static/%0d{forged}"]
        with httpx.Client(base_url=server.base_url, timeout=10) as http:
            for path in paths:
                assert http.get(path).status_code in (400, 404)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and sum("logout-all 200" in line for line in server.output) < len(paths):
            time.sleep(0.05)
    finally:
        server.stop()
    lines = [line.rstrip("\n") for line in server.output[1:] if line.strip()]  # the first line is the URL
    carrying = [line for line in lines if "/api/accounts/logout-all 200" in line]
    assert len(carrying) == len(paths), lines
    for line in lines:
        assert STAMP.match(line) or line.startswith("  | "), f"a line that is not a log event: {line!r}"
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]", line), repr(line)
    assert any("\\r\\n2026-01-01T00:00:00.000Z" in line for line in carrying), carrying
    assert any("\\x1b[2J\\u2028" in line for line in carrying), carrying
