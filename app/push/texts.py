"""What a notification says, in the language its browser subscribed in (English or Japanese): the
payload the service worker shows (``static/sw.js``). Nothing hidden is in it: the kind, the game,
the table's address, and for a mention the sender's name and the message the player may read."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import engines

MENTION_CHARS = 140  # of the chat message, in the notification's body


@dataclass(frozen=True)
class Event:
    """Something a player may be notified of, at one table (``room_id``)."""

    kind: str  # app.push.models.KINDS
    room_id: str
    game: str
    extra: dict = field(default_factory=dict, hash=False, compare=False)  # name, text (mentions)

    @property
    def topic(self) -> str:
        """The ``Topic`` header: a push service keeps only the newest undelivered message of one
        topic, so a phone that was off gets one "your turn" per table, not a pile (≤ 32 url-safe characters)."""
        return hashlib.sha256(f"{self.kind}:{self.room_id}".encode()).hexdigest()[:32]


def _title(game: str, ja: bool) -> str:
    try:
        engine = engines.get(game)
        return engine.title_ja if ja else engine.title
    except Exception:
        return game


def payload(event: Event, lang: str) -> dict:
    ja = lang == "ja"
    game = _title(event.game, ja)
    if event.kind == "your_turn" and event.extra.get("answer") == "abort":
        title = f"{game}：対戦の中止の提案があなたの返事を待っています" if ja else f"A proposal to abort {game} waits for your answer"
        body = "テーブルを開いて、賛成するか続けるかを選んでください。" if ja else "Open the table to agree or keep playing."
    elif event.kind == "your_turn" and event.extra.get("answer"):
        title = f"{game}：チームの投了の提案があなたの返事を待っています" if ja else \
            f"Your teammate proposes to concede {game}: your answer"
        body = "テーブルを開いて、賛成するか続けるかを選んでください。" if ja else "Open the table to agree or keep playing."
    elif event.kind == "your_turn":
        title = f"{game}：あなたの番です" if ja else f"Your move in {game}"
        body = "テーブルを開いて指してください。" if ja else "Open the table to play."
    elif event.kind == "hours_left":
        title = f"{game}：残り12時間" if ja else f"12 hours left in {game}"
        body = "期限までに指さないと、テーブルの決まりどおりになります。" if ja else \
            "Move before the deadline, or the table's rule for late moves applies."
    elif event.kind == "match_ended":
        title = f"{game}：対局が終わりました" if ja else f"The {game} match is over"
        body = "結果を見る" if ja else "See who won."
    else:  # chat_mention
        name = str(event.extra.get("name", ""))
        title = f"{name}さんがあなたに呼びかけました（{game}）" if ja else f"{name} mentioned you ({game})"
        text = str(event.extra.get("text", ""))
        body = text if len(text) <= MENTION_CHARS else text[:MENTION_CHARS - 1] + "…"
    return {"kind": event.kind, "room": event.room_id, "url": f"/r/{event.room_id}", "title": title,
            "body": body, "tag": f"{event.kind}:{event.room_id}", "lang": "ja" if ja else "en"}
