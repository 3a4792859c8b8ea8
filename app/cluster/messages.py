"""What the processes of a cluster say to each other over Redis.

A views message carries every seat's encoded view of one version, keyed by ``seat_key``: the
seat's number as text, or ``SPECTATOR`` for the spectators' view."""

from __future__ import annotations

SPECTATOR = "-"  # the key of the spectators' view in a views message


def seat_key(seat: int | None) -> str:
    return SPECTATOR if seat is None else str(seat)


def view_texts(match) -> dict[str, str]:
    """Every seat's encoded view of the match's current version, and the spectators'."""
    texts = {seat_key(seat): match.current(seat)[1].text for seat in range(match.num_players)}
    texts[SPECTATOR] = match.current(None)[1].text
    return texts
