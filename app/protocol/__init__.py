"""The live wire protocol as types: every WebSocket message each way, and every NDJSON stream line,
is a Pydantic model in a union discriminated by ``type``.

- ``client_messages``: what a client sends on the socket (``hello``, ``action``, ``sync``, ``chat``,
  ``ping``, ``rematch``) and ``parse_client_frame``, the one place a received frame is read.
- ``server_messages``: what the server sends (``view``, ``room``, ``error``, ``ack``, ``chat``,
  ``chat_history``, ``pong``, ``rematch``) and the stream's extra ``ping`` line. The hot path does
  not build these models: views are dicts encoded once per version and seat (``app.live.wire``);
  the models describe them (the schema, the tests that check what a played match sent).
- ``schema``: the JSON Schema of both unions, committed as ``docs/protocol.schema.json``
  (``python -m app.protocol.schema`` rewrites it, ``--check`` compares).

Imports go one way: this package needs only Pydantic and ``app.schemas``'s bounds; the live code
imports it, never the reverse."""

from app.protocol.client_messages import (ClientMessage, Hello, MalformedFrame, parse_client_frame)
from app.protocol.server_messages import ServerMessage, StreamLine, ViewMessage

__all__ = ["ClientMessage", "Hello", "MalformedFrame", "ServerMessage", "StreamLine", "ViewMessage",
           "parse_client_frame"]
