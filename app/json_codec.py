"""JSON as the server writes and reads it: orjson (fast), with Python's ``json`` behind it for
what orjson refuses, so the results are the ones ``json`` would give.

``dumps``: compact UTF-8 JSON. Keys that are not strings (an int-keyed dict) are written as
strings, as ``json.dumps`` does (orjson's non-string-key mode is slower for every value, so it is
only the fallback). ``loads``: what orjson cannot parse but Python's parser takes (NaN, integers
beyond 64 bits) is parsed by ``json``, so such values meet the checks that follow with their own
clear errors, not "malformed". Text with a lone surrogate (``"\\ud800"``: no character, and
not encodable as UTF-8, so a database, a log line or a push would fail on it later) is refused
here as bad JSON. A value nested past what either parser
takes (orjson stops at 1024 levels, Python's parser at its recursion limit) is a ``ValueError``
like any other bad JSON, never a ``RecursionError`` escaping to the caller."""

from __future__ import annotations

import json
import re

import orjson

_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def dumps(value) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=_NON_STR_KEYS)


def dumps_text(value) -> str:
    return dumps(value).decode()


def loads(text: str | bytes):
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        try:
            value = json.loads(text)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        if has_lone_surrogate(value):  # (orjson refuses them: only this path can hold one)
            raise InvalidText("the text is not valid Unicode (a lone surrogate)")
        return value


class InvalidText(ValueError):
    """JSON whose text holds no character (a lone surrogate)."""


def has_lone_surrogate(value, depth: int = 0) -> bool:
    """Whether a string in ``value`` (parsed JSON) holds a lone surrogate."""
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    if depth > 1000:  # (deeper than either parser goes)
        return False
    if isinstance(value, list):
        return any(has_lone_surrogate(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(key) or has_lone_surrogate(item, depth + 1) for key, item in value.items())
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")
