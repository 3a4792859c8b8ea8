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
reading pauses once ``UNREAD_LIMIT`` messages wait, so a flooding client is still held back."""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

FRAMES_EXTENSION = "asobiba.frames"
UNREAD_LIMIT = 8


def uvicorn_ws(setting: str):
    """What to pass uvicorn as ``ws`` for ``Settings.ws_protocol``: its sans-I/O implementation
    comes with the frames extension; any other one is uvicorn's own (the app then sends through
    ASGI alone)."""
    return FrameWritingProtocol if setting == "websockets-sansio" else setting


class FrameWritingProtocol(WebSocketsSansIOProtocol):
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
