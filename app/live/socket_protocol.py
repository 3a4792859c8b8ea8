"""uvicorn's sans-I/O WebSocket protocol, plus a way for the live layer to write prebuilt frames.

Every move pushes a view to each socket of its room. Through ASGI each push is a ``send`` event
that uvicorn frames again for that socket (a ``Frame`` object, a header, a copy of the payload)
after the app has encoded the message once. This protocol offers the ASGI extension
``FRAMES_EXTENSION`` in the socket's scope: ``write(frame)`` puts a complete frame (built once by
``app.live.wire.Encoded`` for every socket of a seat) straight on the transport, and answers
False, writing nothing, while the socket is not open or the transport applies back-pressure; the
caller then queues the message for the ordinary ASGI ``send``, which waits its turn.

It also reads on while a few received messages wait for the app (uvicorn pauses reading after
every message, and resumes when the app has taken it: two calls into the event loop per frame);
reading pauses once ``UNREAD_LIMIT`` messages wait, so a flooding client is still held back.

A frame over the transport's limit (uvicorn's ``ws_max_size``, 4 × ``MAX_FRAME_BYTES``: past it
the frame is not even read) closes the socket with 1009 and the reason ``too_large``, the code of
the ``error`` a frame under that limit but over ``MAX_FRAME_BYTES`` gets, whichever implementation
serves (the library's own reason is a sentence, or nothing)."""

from __future__ import annotations

from websockets.frames import CloseCode
from websockets.server import ServerProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

FRAMES_EXTENSION = "asobiba.frames"
UNREAD_LIMIT = 8
TOO_LARGE_REASON = "too_large"  # the close reason of a frame over the transport's limit (1009)


class _ServerProtocol(ServerProtocol):
    """websockets' server protocol, closing a too large frame's socket with the reason ``too_large``."""

    def fail(self, code: CloseCode | int, reason: str = "") -> None:
        super().fail(code, TOO_LARGE_REASON if code == CloseCode.MESSAGE_TOO_BIG else reason)


def uvicorn_ws(setting: str):
    """What to pass uvicorn as ``ws`` for ``Settings.ws_protocol``: its sans-I/O implementation
    comes with the frames extension; any other one is uvicorn's own (the app then sends through
    ASGI alone), closing a too large frame's socket with ``too_large`` as well."""
    if setting == "websockets-sansio":
        return FrameWritingProtocol
    if setting == "websockets":
        return _legacy_protocol()
    return setting


def _legacy_protocol():
    """uvicorn's ``websockets`` implementation (imported only when chosen: it warns that it is
    deprecated), closing a too large frame's socket with the reason ``too_large``."""
    from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol

    class TooLargeReasonProtocol(WebSocketProtocol):
        def fail_connection(self, code: int = CloseCode.ABNORMAL_CLOSURE, reason: str = "") -> None:
            super().fail_connection(code, TOO_LARGE_REASON if code == CloseCode.MESSAGE_TOO_BIG else reason)

    return TooLargeReasonProtocol


class FrameWritingProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.conn.__class__ = _ServerProtocol  # the same protocol object, with its ``fail`` above
    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:  # the app's task is created but has not run yet
            scope["extensions"][FRAMES_EXTENSION] = {"write": self.write_frame}

    def connection_lost(self, exc) -> None:
        super().connection_lost(exc)
        # The scope holds ``write``, which holds this protocol, which holds the scope: a reference
        # cycle that kept every closed socket's objects (~80) for the cyclic collector, which
        # finds those that lived long only in a full collection (app/observability/gc_tuning.py).
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(FRAMES_EXTENSION, None)

    def write_frame(self, frame: bytes) -> bool:
        """Write ``frame`` now if the socket is open and the transport takes more; else False."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or not self.writable.is_set() or self.transport.is_closing()):
            return False
        self.transport.write(frame)
        return True

    def send_receive_event_to_app(self) -> None:
        if self.read_paused or self.queue.qsize() + 1 >= UNREAD_LIMIT:
            super().send_receive_event_to_app()  # queues the message and pauses reading
            return
        # Below the limit: let uvicorn queue the message but not pause (it pauses unless paused).
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False
