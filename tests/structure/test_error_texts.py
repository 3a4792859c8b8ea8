"""Every refusal a person can meet through the pages is said in their language: each error code the
server's code raises (``ApiError``, ``PlatformRefusal``, the limits' ``Refused``, a socket's
``error`` frames) is in static/error_texts.js with an English and a Japanese text, or named below
as one no page can meet. A new code fails here until it is written down in one of the two places."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Codes of endpoints or frames no page of ours sends wrongly, each with why.
NOT_ON_A_PAGE = {
    "bad_endpoint": "a push subscription's endpoint is the browser's own",
    "bad_step": "the replay page asks only for the steps it lists",
    "bad_request": "a socket frame the page always builds whole",
    "bad_reply": "between the processes of a cluster",
    "invalid_request": "a socket frame the page always builds whole",
    "unknown_request": "a socket frame the page always builds whole",
    "remote_failure": "between the processes of a cluster",
    "internal": "the server's own failure, logged; the page says it in general words",
    "not_admin": "the admin page (English-only, for operators)",
    "not_allowed": "the metrics endpoint, for operators",
    "session_ended": "said on close in the page's language (room.js)",
}
RAISED = re.compile(r"(?:Error|Refusal|Refused|__init__)\(\s*\d{3},\s*\"([a-z_]+)\"")
FRAMED = re.compile(r"\"code\":\s*\"([a-z_]+)\"|code=\"([a-z_]+)\"")
LISTED = re.compile(r"^\s+([a-z_]+): (?:\[|[A-Z_]+,)", re.MULTILINE)


def server_codes() -> set[str]:
    codes = set()
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text()
        codes.update(RAISED.findall(text))
        codes.update(a or b for a, b in FRAMED.findall(text))
    return codes


def test_every_code_a_page_can_meet_is_said_in_english_and_japanese():
    script = (ROOT / "static" / "error_texts.js").read_text()
    listed = set(LISTED.findall(script.split("const TEXTS = {", 1)[1]))
    codes = server_codes()
    assert len(codes) > 50, "the patterns no longer find the server's codes"
    assert {"too_many_votes", "already_voted", "rate_limited", "stale_version"} <= codes
    missing = codes - listed - set(NOT_ON_A_PAGE)
    assert not missing, f"codes with no text for people in static/error_texts.js: {sorted(missing)}"
    assert not (listed & set(NOT_ON_A_PAGE)), "a code is both said and called unreachable"


def test_each_text_has_an_english_and_a_japanese_line():
    script = (ROOT / "static" / "error_texts.js").read_text()
    for en, ja in re.findall(r"\[\s*\"([^\"]+)\",\s*\"([^\"]+)\",?\s*\]", script):
        assert en.isascii() and not ja.isascii(), (en, ja)
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), ja


def test_every_reason_a_match_went_unrated_is_said_in_japanese():
    """``unrated_reason`` (app/ratings.py) is shown on the replay page, which says each in Japanese
    from its own table: a new reason fails here until it is written there."""
    source = (ROOT / "app" / "ratings.py").read_text()
    body = source.split("def unrated_reason", 1)[1].split("\ndef ", 1)[0]
    reasons = set(re.findall(r"return \"([^\"]+)\"", body))
    assert len(reasons) >= 6 and "a bot played" in reasons, "the pattern no longer finds the reasons"
    table = (ROOT / "static" / "replay.js").read_text().split("const UNRATED_JA = {", 1)[1].split("};", 1)[0]
    said = dict(re.findall(r"\"([^\"]+)\": \"([^\"]+)\"", table))
    assert not reasons - set(said), f"no Japanese on the replay page for {sorted(reasons - set(said))}"
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja) for ja in said.values()), said
