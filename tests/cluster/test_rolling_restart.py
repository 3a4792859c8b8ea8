"""A rolling restart of a three-process cluster behind HAProxy: SIGTERM to the owner of a running
room mid-match. It drains (actions in flight commit and push), hands its rooms over at once
(releases their leases: another process takes each over without waiting out the lease) and
exits 0; the players' sockets reconnect through HAProxy with their version and resync, and the
match finishes with every acknowledged action in the log, none twice, no version skipped on any
socket."""

from __future__ import annotations

import random
import signal
import time

from tests.cluster.players import Seat, play
from tests.cluster.test_cluster_matches import bot_policy
from tests.cluster.test_losing_a_node import finish_checks, owner_epoch, server_of, start, wait_for_new_owner
from tests.support.cluster import LocalCluster

# Far longer than a hand-over may take: a new owner within it was handed the room, not one that
# found it orphaned once the old lease ran out.
LEASE_SECONDS = 15.0


def test_sigterm_to_the_owner_hands_its_room_over_without_waiting_for_the_lease(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path, CLUSTER_LEASE_SECONDS=str(LEASE_SECONDS)) as cluster:
        room_id, apis, seats, match_id = start(cluster, "synomilia", ["Aki", "Ben"])
        owner = server_of(cluster, owner_epoch(postgres_url, match_id)[1])
        seats[0].socket.close()  # seat 0 on the owner itself: its socket goes down with it
        seats[0] = Seat(cluster.ws_url, room_id, apis[0].token, first_url=owner.ws_url)
        handed_over = []

        def on_step(version):
            if version >= 4 and not handed_over:
                epoch, _ = owner_epoch(postgres_url, match_id)
                asked = time.monotonic()
                owner.process.send_signal(signal.SIGTERM)
                new_epoch, new_node = wait_for_new_owner(postgres_url, match_id, epoch, timeout=LEASE_SECONDS / 2)
                handed_over.append((time.monotonic() - asked, new_node))
                assert owner.process.wait(timeout=15) == 0, "".join(owner.output[-30:])

        final, acked, lost = play(seats, bot_policy("synomilia"), random.Random(7), on_step=on_step)
        assert handed_over, "the match ended before the restart"
        seconds, new_node = handed_over[0]
        assert seconds < LEASE_SECONDS / 2 and server_of(cluster, new_node) is not owner
        assert seats[0].reconnects >= 1  # its socket was on the stopped process
        finish_checks(postgres_url, room_id, apis, seats, final, acked, lost)
