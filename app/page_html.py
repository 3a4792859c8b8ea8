"""Server-rendered HTML: the client's shell (static/index.html) with Open Graph tags, so an invite
link pasted into a chat app shows the game's title, a sentence and its picture, and the not-found
page in the site's look with a way back.

A preview says only what anyone holding the link sees anyway before taking a seat: the game, the
table's size, how many seats are free and whether a match runs. No names, nothing of a match.
Templates are read once at import: no file work on the event loop."""

from __future__ import annotations

from html import escape

import engines
from app.settings import ROOT

INDEX = (ROOT / "static" / "index.html").read_text(encoding="utf-8")
MARKER = "<!-- page-meta -->"
OG_IMAGE = "/static/img/og/{name}.png"  # 1200×630 pictures made by scripts/og_images.py
SITE = "Asobiba 遊び場"


def prefers_japanese(accept_language: str | None) -> bool:
    """The browser's first language is Japanese (chat apps' crawlers mostly send English)."""
    first = (accept_language or "").split(",")[0].strip().lower()
    return first.startswith("ja")


def meta_tags(title: str, description: str, url: str, image: str, image_alt: str, ja: bool) -> str:
    tags = [
        ("og:site_name", SITE), ("og:type", "website"), ("og:title", title), ("og:description", description),
        ("og:url", url), ("og:image", image), ("og:image:type", "image/png"), ("og:image:width", "1200"),
        ("og:image:height", "630"), ("og:image:alt", image_alt), ("og:locale", "ja_JP" if ja else "en_US"),
    ]
    lines = [f'<meta property="{p}" content="{escape(v)}">' for p, v in tags]
    lines += [f'<meta name="description" content="{escape(description)}">',
              '<meta name="twitter:card" content="summary_large_image">',
              f'<meta name="twitter:title" content="{escape(title)}">',
              f'<meta name="twitter:description" content="{escape(description)}">',
              f'<meta name="twitter:image" content="{escape(image)}">']
    return "\n".join(lines)


def shell(title: str, tags: str) -> str:
    """index.html with ``title`` and ``tags`` in its head."""
    return INDEX.replace("<title>Asobiba 遊び場</title>", f"<title>{escape(title)}</title>", 1).replace(MARKER, tags, 1)


def landing(base: str, accept_language: str | None) -> str:
    ja = prefers_japanese(accept_language)
    title = SITE
    titles = [game.title_ja if ja else game.title for game in engines.all_engines()]  # each game's own
    description = (f"友だちと小さな日本のボードゲームを遊べるサイト: {'、'.join(titles)}。" if ja else
                   "Play small Japanese board and card games with friends in the browser: "
                   f"{' and '.join(filter(None, [', '.join(titles[:-1]), titles[-1]]))}.")
    alt = "遊び場の5つのゲーム" if ja else "The five games of Asobiba"
    return shell(title, meta_tags(title, description, base + "/", base + OG_IMAGE.format(name="asobiba"), alt, ja))


def room(base: str, summary: dict, game_title: str, game_title_ja: str, accept_language: str | None) -> str:
    """A room's invite link: the game and the table, as the lobby shows it to a visitor."""
    ja = prefers_japanese(accept_language)
    name = game_title_ja if ja else game_title
    seats = summary["num_seats"]
    free = sum(1 for s in summary["seats"] if not s.get("player_id"))
    status = summary["status"]
    if ja:
        title = f"{name}({seats}人)— 遊び場"
        description = {"open": f"招待されました: {seats}席中{free}席が空いています。リンクを開いて席についてください。",
                       "running": "対戦中です。リンクを開くと観戦できます。"}.get(status, "この対戦は終わりました。リンクを開くと結果を見られます。")
        alt = f"{name}の道具"
    else:
        title = f"{name} — a table for {seats} on Asobiba"
        description = {"open": f"You are invited: {free} of {seats} seats free. Open the link to take a seat.",
                       "running": "A match is being played: open the link to watch."}.get(
            status, "This match is over: open the link to see how it ended.")
        alt = f"{name}: the components"
    url = f"{base}/r/{summary['id']}"
    tags = meta_tags(title, description, url, base + OG_IMAGE.format(name=summary["game"]), alt, ja)
    # the table's stylesheet, fetched with the page's (static/tables.js adds it when the room is known)
    tags += f'\n<link rel="preload" as="style" href="/static/css/games/{summary["game"]}.css">'
    return shell(title, tags)


NIGHT = (ROOT / "static" / "night.html").read_text(encoding="utf-8")


def night(base: str, night_id: str, night_data: dict, accept_language: str | None) -> str:
    """A game night's shareable link: its standings as a picture (drawn by the server), and a
    sentence saying how far the night is. The night's link is its secret, as a room's is."""
    ja = prefers_japanese(accept_language)
    played = night_data["played"]
    leader = night_data["standings"][0] if night_data["standings"] else None
    over = night_data["status"] == "over"
    if ja:
        title = "ゲームナイト — 遊び場"
        description = (f"{played}戦の結果。" if over else f"{played}戦が終わりました。") + \
            (f"1位は{leader['name']}({leader['total']}点)。" if leader and played else "")
        alt = "ゲームナイトの順位"
    else:
        title = "Game night on Asobiba"
        description = (f"Final standings after {played} matches." if over else f"{played} matches played so far.") + \
            (f" Leading: {leader['name']} with {leader['total']} points." if leader and played else "")
        alt = "The game night's standings"
    image = f"{base}/api/nights/{night_id}/standings.png" + ("?lang=ja" if ja else "")
    tags = meta_tags(title, description, f"{base}/n/{night_id}", image, alt, ja)
    page = NIGHT.replace('<html lang="en">', f'<html lang="{"ja" if ja else "en"}">', 1) if ja else NIGHT
    return page.replace("<title>Game night — Asobiba 遊び場</title>", f"<title>{escape(title)}</title>", 1).replace(MARKER, tags, 1)


def not_found(accept_language: str | None, what: str = "page") -> str:
    """The not-found page in the site's look: what happened, in the reader's language first, and a
    way back to the landing page."""
    ja = prefers_japanese(accept_language)
    en_text = ("There is no table at this address: the link may be mistyped, or cut short by a chat app."
               if what == "room" else "There is no page at this address.")
    ja_text = ("このアドレスの部屋はありません。リンクが間違っているか、途中で切れているかもしれません。"
               if what == "room" else "このアドレスのページはありません。")
    en = (en_text, "Back to Asobiba: start or join a game", "en")
    jp = (ja_text, "遊び場のトップへ戻る: ゲームを始める・参加する", "ja")
    first, second = (jp, en) if ja else (en, jp)
    heading = "見つかりません (404)" if ja else "Not found (404)"
    body = (f'<section class="card not-found" id="not-found"><h1>{heading}</h1>'
            f'<p lang="{first[2]}">{escape(first[0])}</p><p><a lang="{first[2]}" class="primary-link" href="/">{escape(first[1])}</a></p>'
            f'<p lang="{second[2]}" class="muted">{escape(second[0])} <a href="/">{escape(second[1])}</a></p></section>')
    page = INDEX.replace('<html lang="en">', f'<html lang="{"ja" if ja else "en"}">', 1)
    page = page.replace("<title>Asobiba 遊び場</title>", f"<title>{heading} — Asobiba</title>", 1).replace(MARKER, f'<meta name="description" content="{escape(first[0])}">', 1)
    # static/app.js draws the header and leaves a page that has #not-found alone
    return page.replace('<main id="main"></main>', f'<main id="main">{body}</main>', 1)
