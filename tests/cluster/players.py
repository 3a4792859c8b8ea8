"""Players that survive a cluster losing processes: each seat is a WebSocket through the load
balancer that reconnects (to whichever process HAProxy picks) with the last version it saw and
resyncs; actions refused because the room is changing owner are tried again. Every action the
server acknowledged (the actor's socket received the next version and no error) is recorded, so a
test can compare the stored log with what clients were told."""

from __future__ import annotations

import random
import time

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.support.clients import Socket

RETRY_CODES = {"owner_unavailable", "not_owner", "store_unavailable", "stale_version", "not_your_turn"}


class Seat:
    def __init__(self, ws_url: str, room_id: str, token: str | None, first_url: str | None = None):
        """Reconnects go to ``ws_url`` (the load balancer); the first connection to ``first_url``
        if given (a test puts a socket on a chosen process)."""
        self.ws_url, self.room_id, self.token = ws_url, room_id, token
        self.versions: list[int] = []  # every view version received, in order (resyncs included)
        self.resyncs = 0
        self.gaps = 0
        self.reconnects = 0
        self.latest: dict | None = None
        self.socket = self._connect(None, first_url)

    def _connect(self, version: int | None, url: str | None = None) -> Socket:
        deadline = time.monotonic() + 30
        while True:
            try:
                return Socket(url or self.ws_url, self.room_id, self.token, version)
            except (OSError, InvalidHandshake, InvalidStatus, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def reconnect(self) -> None:
        self.reconnects += 1
        self.socket = self._connect(self.latest["version"] if self.latest else None)

    def pump(self, timeout: float, until=lambda message: False) -> list[dict]:
        """Messages that arrive within ``timeout``, or until one satisfies ``until`` (reconnecting
        if the socket died)."""
        got = []
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                message = self.socket.recv(timeout=max(remaining, 0.001))
            except TimeoutError:
                return got
            except (ConnectionClosed, OSError):
                self.reconnect()
                continue
            got.append(message)
            if message["type"] == "view":
                if self.latest is not None and message["version"] > self.latest["version"] + 1 \
                        and not message.get("resync"):
                    self.gaps += 1  # a version skipped without a resync mark
                if self.latest is None or message["version"] >= self.latest["version"]:
                    self.latest = message
                self.versions.append(message["version"])
                self.resyncs += bool(message.get("resync"))
            if remaining <= 0 or until(message):
                return got

    def send(self, message: dict) -> bool:
        try:
            self.socket.send(message)
            return True
        except (ConnectionClosed, OSError):
            self.reconnect()
            return False


def play(seats: dict[int, Seat], policy, rng: random.Random, on_step=None, timeout: float = 300.0):
    """Play until the outcome; returns (final view, acknowledged [(version, seat, action)],
    in flight [(version, seat, action)] whose answer was lost with a socket). ``on_step(version)``
    runs before each move (a test kills processes there)."""
    acked, lost = [], []
    deadline = time.monotonic() + timeout
    for seat in seats.values():
        seat.pump(0.5)
    while time.monotonic() < deadline:
        newest = max((s.latest for s in seats.values() if s.latest), key=lambda m: m["version"], default=None)
        if newest is not None and newest["outcome"] is not None:
            return newest, acked, lost
        current = newest["version"] if newest else -1
        actors = [n for n, s in seats.items()
                  if s.latest and s.latest["version"] == current and s.latest["legal_actions"]]
        if not actors:  # an automatic step is due, or a socket is behind: listen, then ask
            for seat in seats.values():
                if not seat.pump(0.05, until=lambda m: m["type"] == "view") and seat.latest is not None:
                    seat.send({"type": "sync", "version": seat.latest["version"]})
            continue
        if on_step is not None:
            on_step(current)
        number = rng.choice(actors)
        seat = seats[number]
        action = policy(seat.latest, rng)
        ref = f"a{len(acked) + len(lost)}.{time.monotonic_ns()}"
        # A send that failed on a closing socket may still have delivered the frame: its fate is
        # unknown, like an answer lost with a socket.
        outcome = _await_answer(seat, current, ref) \
            if seat.send({"type": "action", "action": action, "version": current, "id": ref}) else "lost"
        if outcome == "acked":
            acked.append((current, number, action))
        elif outcome == "lost":
            lost.append((current, number, action))
            for other in seats.values():  # let its version, if it was applied, arrive before acting
                other.pump(0.3)
        else:
            time.sleep(0.1)
    raise AssertionError("the match did not end in time: " + "; ".join(
        f"seat {n}: version {s.latest and s.latest['version']}, awaiting {s.latest and s.latest['awaiting']}, "
        f"{len(s.latest['legal_actions']) if s.latest else 0} legal" for n, s in seats.items()))


def _await_answer(seat: Seat, version: int, ref: str) -> str:
    """'acked' (the server's ``ack`` of this action, ``ref``: committed), 'refused' (an error
    answering it: to retry, nothing was applied), 'lost' (the socket died first, the server said it
    does not know what became of the action: the log decides). A newer view is no answer: another
    seat's action or a timer may have taken the version this one was sent for, and this one's
    refusal follows the view. Answers to other messages (a ``sync`` while the room was changing
    owner) are not this one's. Refusals are printed (shown when a test fails): ``check_log`` fails
    on a refused action found in the log."""
    reconnects = seat.reconnects
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for message in seat.pump(0.2, until=lambda m: m["type"] in ("error", "ack") and m.get("ref") == ref):
            if message["type"] not in ("error", "ack") or message.get("ref") != ref:
                continue
            if message["type"] == "ack" and seat.reconnects == reconnects:
                assert message["version"] > version, message
                return "acked"
            if message["type"] == "error" and message["code"] == "outcome_unknown":
                return "lost"  # the owner's answer was lost: the log decides, as for a dead socket
            if message["type"] == "error":
                assert message["code"] in RETRY_CODES, message
                print(f"refused at version {version}: {message['code']}: {message['message']}")
                return "refused"
        if seat.reconnects != reconnects:
            return "lost"
    return "lost"


def finished_room(api, room_id: str, timeout: float = 5.0) -> dict:
    """The room as a REST read through the load balancer sees it once the match is over. The
    process that answers may be a mirror, whose copy of the room follows the owner's published
    views a moment after the socket that saw the final view: a short propagation delay is the
    cluster's contract, a mirror that stays behind is not (the read then fails here)."""
    deadline = time.monotonic() + timeout
    while True:
        room = api.get(f"/api/rooms/{room_id}").json()
        if room["status"] == "finished" or time.monotonic() > deadline:
            return room
        time.sleep(0.05)


def check_log(log: list[tuple[int, dict]], acked, lost, driven: set[int] | None = None) -> None:
    """Every acknowledged action is in the log at its version; every other action in the log of a
    seat the test plays (``driven``, default all) is one whose answer was lost with a killed
    process; nothing is there twice."""
    for version, seat, action in acked:
        assert log[version] == (seat, action), (version, log[version], seat, action)
    acked_versions = {v for v, _, _ in acked}
    for version, (seat, action) in enumerate(log):
        if seat >= 0 and (driven is None or seat in driven) and version not in acked_versions:
            assert (version, seat, action) in [(v, s, a) for v, s, a in lost], (version, seat, action)
    assert len(lost) <= 8


def unbroken(seat: Seat) -> None:
    """The socket saw every version in order: each new version is the one after the newest it had
    (a reply to ``sync`` may repeat versions it already had; those are not new)."""
    assert seat.gaps == 0, seat.versions
