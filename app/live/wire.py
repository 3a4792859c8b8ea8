"""How messages are written on the wire: compact JSON text, encoded once per message (orjson).

Messages have string keys (the engines' views and the live layer's own fields); a message that
does not is still written, its keys as strings, as ``json.dumps`` would (orjson's non-string-key
mode is slower for every message, so it is only the fallback)."""

from __future__ import annotations

import orjson

_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def encode(message) -> str:
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return orjson.dumps(message, option=_NON_STR_KEYS).decode()
