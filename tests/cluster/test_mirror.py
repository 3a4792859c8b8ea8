"""A mirror of a match owned elsewhere: each seat gets its own seat's text of the owner's views,
reconnects get the versions they missed while they are kept, a gap forces a full resync, and a
client syncing from the mirror's own version makes it ask the owner."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.cluster.mirror import MirrorMatch
from app.errors import ApiError


def views(version: int, outcome=None) -> dict[str, str]:
    texts = {str(seat): json.dumps({"type": "view", "version": version, "seat": seat, "view": {"hand": seat},
                                    "outcome": outcome}) for seat in (0, 1)}
    texts["-"] = json.dumps({"type": "view", "version": version, "seat": None, "view": {}, "outcome": outcome})
    return texts


class Listener:
    def __init__(self):
        self.advanced, self.finished = 0, 0

    def on_advanced(self, runner):
        self.advanced += 1

    def on_finished(self, runner):
        self.finished += 1


def test_views_per_seat_history_gaps_and_forwarding():
    forwarded, behind = [], []

    async def forward(seat, action, version):
        forwarded.append((seat, action, version))
        return version + 1

    mirror = MirrorMatch("m1", "synomilia", 2, forward, resync_window=3, on_behind=lambda: behind.append(1))
    listener = Listener()
    mirror.listener = listener
    with pytest.raises(ApiError) as not_yet:
        mirror.current(0)
    assert not_yet.value.code == "owner_unavailable" and not mirror.finished
    assert mirror.receive(4, views(4), restart=True)
    assert mirror.current(1).message["view"] == {"hand": 1} and mirror.current(None).message["seat"] is None
    assert json.loads(mirror.current(0).text)["seat"] == 0
    assert not mirror.receive(4, views(4)) and not mirror.receive(3, views(3))  # old news
    for version in (5, 6, 7):
        assert mirror.receive(version, views(version))
    assert [m["version"] for m in mirror.missed_messages(0, 5)] == [6, 7]
    assert [m["seat"] for m in mirror.missed_messages(1, 4)] == [1, 1, 1]
    assert mirror.missed_messages(0, 2) is None  # older than what is kept: full resync
    assert behind == []
    assert mirror.missed_messages(0, 7) is None and behind == [1]  # the client is at our version: ask
    assert mirror.receive(9, views(9))  # 8 was missed: history restarts
    assert mirror.missed_messages(0, 7) is None and [m["version"] for m in mirror.missed_messages(0, 8)] == [9]
    assert mirror.receive(10, views(10, outcome={"ranks": [0, 1]}))
    assert mirror.finished and listener.finished == 1 and listener.advanced == 6
    with pytest.raises(ApiError):
        mirror.current(5)
    assert asyncio.run(mirror.submit(1, {"type": "x"}, 10)) == 11 and forwarded == [(1, {"type": "x"}, 10)]


def test_an_acknowledged_action_and_a_rest_read_wait_for_the_owners_views():
    """The owner answers a forwarded action before its published views reach this process: the
    mirror asks the owner (``catch_up``) so the caller's answer and a read after it show the new
    version, not the one before it."""
    owner = {"version": 3}
    mirror: MirrorMatch

    async def forward(seat, action, version):
        owner["version"] = version + 1  # applied there; its views are still on their way
        return owner["version"]

    async def catch_up():
        mirror.receive(owner["version"], views(owner["version"]))

    mirror = MirrorMatch("m1", "synomilia", 2, forward, catch_up=catch_up)
    assert mirror.receive(3, views(3), restart=True)
    assert asyncio.run(mirror.submit(0, {"type": "x"}, 3)) == 4
    assert mirror.current(0).message["version"] == 4 and [v for v, _ in mirror.history] == [3, 4]  # kept: no gap
    owner["version"] = 6  # two more versions elsewhere, not published here yet
    asyncio.run(mirror.caught_up())
    assert mirror.current(1).message["version"] == 6 and [v for v, _ in mirror.history] == [6]  # a gap: starts over
