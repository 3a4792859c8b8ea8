"""How messages are written on the wire: compact JSON (``app.json_codec``), encoded once per
message and framed once for every socket that receives it."""

from __future__ import annotations

import struct

from app.json_codec import dumps, loads

_TEXT_FRAME = 0x81  # FIN + opcode 1 (text)


class Encoded:
    """One message encoded once for every socket and stream that gets it: its JSON ``text`` and its
    WebSocket text ``frame``, each made on first use and then shared. A server's frames are not
    masked (RFC 6455, section 5.1), so the same frame bytes are right for every socket."""

    __slots__ = ("_body", "_text", "_frame", "_message")

    def __init__(self, body: bytes | None = None, text: str | None = None):
        self._body = body
        self._text = text
        self._frame: bytes | None = None
        self._message: dict | None = None

    @classmethod
    def of(cls, message) -> "Encoded":
        """Encoded now; ``message`` itself is not kept. A view is hundreds of small objects: freed
        here, right after encoding, while they are still in the CPU's cache, they cost a tenth of
        what freeing them a version later does (benchmarks/README.md, issue 34)."""
        return cls(body=dumps(message))

    @property
    def message(self) -> dict:
        """The message decoded again (on first use, then kept): for the few readers of a view's
        fields (REST, streams, "my tables"); a socket only ever takes the frame."""
        if self._message is None:
            source = self._body if self._body is not None else self._text
            assert source is not None, "an Encoded holds its text or its body"
            self._message = loads(source)
        return self._message

    @property
    def text(self) -> str:
        if self._text is None:
            assert self._body is not None, "an Encoded holds its text or its body"
            self._text = self._body.decode()
        return self._text

    @property
    def framed(self) -> bool:
        """Whether the frame was built (a socket took the message as a frame)."""
        return self._frame is not None

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            if self._body is None:
                assert self._text is not None, "an Encoded holds its text or its body"
                self._body = self._text.encode()
            self._frame = text_frame(self._body)
        return self._frame


def text_frame(payload: bytes) -> bytes:
    """A complete, unfragmented, unmasked WebSocket text frame carrying ``payload`` (RFC 6455, 5.2)."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", _TEXT_FRAME, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", _TEXT_FRAME, 126, size)
    else:
        header = struct.pack("!BBQ", _TEXT_FRAME, 127, size)
    return header + payload
