"""A message is encoded and framed once for every socket: the frame must be exactly what a
WebSocket client parses back into that message, at every length encoding (RFC 6455, 5.2)."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from app.live.wire import Encoded, text_frame


def parse(frame: bytes) -> Frame:
    """The frame as a client reads it (unmasked, as a server sends)."""
    reader = StreamReader()
    reader.feed_data(frame)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        return done.value
    raise AssertionError("the frame is incomplete")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 200_000])
def test_a_text_frame_parses_back_to_its_payload(size):
    payload = ("é" * size).encode()[:size]
    frame = parse(text_frame(payload))
    assert frame.opcode is Opcode.TEXT and frame.fin and frame.data == payload


def test_an_encoded_message_is_framed_once_and_reads_the_same_as_text():
    message = {"type": "view", "view": {"名前": "ミポリン", "n": [1, 2, 3]}}
    encoded = Encoded.of(message)
    assert not encoded.framed
    frame = encoded.frame
    assert encoded.framed and encoded.frame is frame
    assert parse(frame).data.decode() == encoded.text
    assert Encoded(text=encoded.text).frame == frame
