"""JSON as the server writes and reads it: orjson (fast), with Python's ``json`` behind it for
what orjson refuses, so the results are the ones ``json`` would give.

``dumps``: compact UTF-8 JSON. Keys that are not strings (an int-keyed dict) are written as
strings, as ``json.dumps`` does (orjson's non-string-key mode is slower for every value, so it is
only the fallback). ``loads``: what orjson cannot parse but Python's parser takes (NaN, integers
beyond 64 bits, lone surrogates) is parsed by ``json``, so such values meet the checks that
follow with their own clear errors, not "malformed". A value nested past what either parser
takes (orjson stops at 1024 levels, Python's parser at its recursion limit) is a ``ValueError``
like any other bad JSON, never a ``RecursionError`` escaping to the caller."""

from __future__ import annotations

import json

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
            return json.loads(text)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
