"""How messages are written on the wire: compact JSON text, encoded once per message (orjson;
non-string keys become strings, as ``json.dumps`` would write them)."""

from __future__ import annotations

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(message) -> str:
    return orjson.dumps(message, option=_OPTIONS).decode()
