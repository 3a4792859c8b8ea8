"""The protocol's JSON Schema, generated from the models and committed as ``docs/protocol.schema.json``.

    python -m app.protocol.schema           # rewrite docs/protocol.schema.json
    python -m app.protocol.schema --check   # exit 1 if the committed file and the models disagree

A test runs the check, so a change to a message model that forgets the schema fails CI."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter

from app.protocol.client_messages import ClientMessage
from app.protocol.server_messages import ServerMessage, StreamLine

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"

# name in the document -> the union it describes
UNIONS: dict[str, tuple[Any, str]] = {  # name: (the union of messages, what it is)
    "ClientMessage": (ClientMessage, "a frame a client sends on WS /ws/rooms/{id}"),
    "ServerMessage": (ServerMessage, "a frame the server sends on WS /ws/rooms/{id}"),
    "StreamLine": (StreamLine, "a line of GET /api/rooms/{id}/stream (NDJSON)"),
}


def build() -> dict:
    """One document: ``$defs`` holds every message model and the three unions, each a ``oneOf``
    discriminated by ``type``."""
    inputs: list[tuple[str, Literal["validation"], TypeAdapter[Any]]] = [
        (name, "validation", TypeAdapter(union)) for name, (union, _) in UNIONS.items()]
    refs, schema = TypeAdapter.json_schemas(inputs, ref_template="#/$defs/{model}")
    defs = dict(sorted(schema.get("$defs", {}).items()))
    for name, (_, description) in UNIONS.items():
        defs[name] = dict(refs[(name, "validation")], description=description)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://asobiba.example/protocol.schema.json",
        "title": "Asobiba live protocol",
        "description": "WebSocket frames each way and NDJSON stream lines; see docs/protocol.md.",
        "$defs": defs,
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in UNIONS],
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.protocol.schema", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        committed = SCHEMA_FILE.read_text() if SCHEMA_FILE.exists() else ""
        if committed != text:
            print(f"{SCHEMA_FILE} is out of date: run python -m app.protocol.schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA_FILE.write_text(text)
    print(f"wrote {SCHEMA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
