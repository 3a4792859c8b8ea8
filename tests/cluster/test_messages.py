"""The cluster's Redis messages are typed (app/cluster/messages.py): each kind parses from the JSON
object on the wire into its model and dumps back to the same object, anything else is refused in
the one place that parses, and the spectators' key is one constant."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.cluster import messages
from app.cluster.messages import (SPECTATOR, CredentialsEnded, Probe, PresenceCounts, Reply, Request, RoomChanged, ToSockets, Views,
                                  ZombieSeats, dump, parse, seat_key, view_texts)
from app.live.wire import Encoded

WIRE = [
    (Views, {"t": "views", "node": "n1", "version": 4, "texts": {"0": "{}", "1": "{}", "-": "{}"}, "restart": True,
             "zombies": [1]}),
    (PresenceCounts, {"t": "presence", "node": "n1", "counts": {"aki": 2, "": 1}}),
    (ToSockets, {"t": "to", "node": "n1", "message": {"type": "chat", "text": "hi"}, "seats": [0, 2]}),
    (ToSockets, {"t": "to", "node": "n1", "message": {"type": "chat", "text": "hi"}}),
    (RoomChanged, {"t": "room", "node": "n1"}),
    (ZombieSeats, {"t": "zombies", "node": "n1", "seats": []}),
    (Request, {"t": "request", "id": "n1.7", "from": "n1", "op": "submit", "body": {"room": "r", "seat": 0}}),
    (Reply, {"t": "reply", "id": "n1.7", "body": {"version": 8}}),
    (Reply, {"t": "reply", "id": "n1.7", "error": {"code": "stale_version", "message": "resync", "status": 409}}),
    (Probe, {"t": "probe"}),
    (CredentialsEnded, {"t": "credentials_ended", "keys": ["session:s1", "guest:g1"]}),
]


@pytest.mark.parametrize(("kind", "wire"), WIRE)
def test_each_message_parses_into_its_model_and_dumps_to_the_same_object(kind, wire):
    message = parse(wire)
    assert type(message) is kind
    assert dump(message) == wire


@pytest.mark.parametrize("wire", [
    {"t": "gossip", "node": "n1"},  # no such kind
    {"node": "n1", "version": 4},  # no kind at all
    {"t": "views", "node": "n1", "version": "four", "texts": {}},  # a field that does not fit
    {"t": "views", "node": "n1", "texts": {}},  # a field missing
    {"t": "request", "id": "n1.7", "op": "submit"},  # a request without its sender
])
def test_anything_else_is_refused_where_messages_are_parsed(wire):
    with pytest.raises(ValidationError):
        parse(wire)


@pytest.mark.parametrize(("operation", "ask", "answer"), [
    (messages.SUBMIT, {"room": "r", "seat": 1, "action": {"type": "play", "card": 3}, "version": 7}, {"version": 8}),
    (messages.SUBMIT, {"room": "r", "seat": 0, "action": {"type": "resign"}}, {"version": 2}),
    (messages.VIEWS, {"room": "r"}, {"version": 4, "texts": {"0": "{}", "-": "{}"}}),
])
def test_request_and_reply_bodies_are_typed_by_their_operation(operation, ask, answer):
    assert dump(operation.ask.model_validate(ask)) == ask
    assert dump(operation.answer.model_validate(answer)) == answer


@pytest.mark.parametrize(("operation", "body"), [
    (messages.SUBMIT, {"seat": 1, "action": {}}),  # no room
    (messages.SUBMIT, {"room": "r", "seat": "one", "action": {}}),
    (messages.VIEWS, {"room": ["r"]}),
])
def test_a_request_body_that_does_not_fit_is_refused(operation, body):
    with pytest.raises(ValidationError):
        operation.ask.model_validate(body)


def test_the_spectators_key_is_one_constant():
    class Shown:
        num_players = 2

        def current(self, seat):
            return Encoded(text=f"view of {seat}")

    assert seat_key(None) == SPECTATOR and seat_key(1) == "1"
    assert view_texts(Shown()) == {"0": "view of 0", "1": "view of 1", SPECTATOR: "view of None"}
    assert messages.SPECTATOR == "-"  # the wire's key, read by every process of a running cluster
