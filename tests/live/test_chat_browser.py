"""Chat in the real browser client: markup typed by one player, or received from another, is shown
as text in ``#chat-log`` and never parsed or executed (headless Chromium through Playwright)."""

from __future__ import annotations

import json

import pytest

from tests.support.browser import watch_errors
from tests.support.clients import Socket
from tests.support.driver import setup_room

TYPED = '<img src=x onerror="window.__xss=1"><b>bold</b>'
RECEIVED = "<script>window.__xss=2</script><i>it</i>"
NAME = "<u>Ben</u>"


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # rendering does not depend on the database
def test_chat_markup_is_shown_not_executed(server, browser):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", NAME])
    host_socket = Socket(server.ws_url, room_id, host.token)
    context = browser.new_context()
    context.add_init_script(
        f"localStorage.setItem('asobiba.token', {json.dumps(guest.token)});"
        f"localStorage.setItem('asobiba.name', {json.dumps(guest.name)});"
        f"localStorage.setItem('asobiba.player', {json.dumps(guest.player_id)});")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base_url}/r/{room_id}")
    page.wait_for_selector("#chat-form")
    host_socket.recv_until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"])

    page.fill("#chat-input", TYPED)
    page.press("#chat-input", "Enter")
    host_socket.recv_until(lambda m: m["type"] == "chat" and m["message"]["text"] == TYPED)
    host_socket.send({"type": "chat", "text": RECEIVED})
    page.wait_for_function("() => document.querySelectorAll('#chat-log li').length >= 2", timeout=10_000)

    lines = page.locator("#chat-log li").all_inner_texts()
    assert lines[0] == f"{NAME}: {TYPED}" and lines[1] == f"Aki: {RECEIVED}"
    assert page.locator("#chat-log img, #chat-log script, #chat-log i, #chat-log u, #chat-log .chat-text b").count() == 0
    assert page.evaluate("window.__xss") is None
    assert errors == []
    context.close()
