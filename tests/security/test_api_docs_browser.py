"""The API docs work in Chromium under their policy, from our origin alone: Swagger UI lists the
operations and ReDoc renders, with no request to another origin and no policy violation."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.support.browser import watch_errors
from tests.support.server import start_in_thread


@pytest.fixture
def sqlite_server(tmp_path):
    running = start_in_thread(f"sqlite:///{tmp_path / 'docs.db'}")
    yield running
    running.stop()


@pytest.mark.parametrize("page_path, shown", [("/docs", "#swagger-ui .opblock"), ("/redoc", "redoc h1")])
def test_the_api_docs_render_from_our_origin(sqlite_server, browser, page_path, shown):
    base = sqlite_server.base_url
    context = browser.new_context(base_url=base)
    page = context.new_page()
    errors = watch_errors(page)
    console = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    # Nothing from another origin reaches the page (ReDoc's footer tries a logo from its maker's
    # CDN: the policy blocks it before it is fetched).
    elsewhere = []
    page.on("response", lambda response: elsewhere.append(response.url)
            if urlsplit(response.url).netloc not in ("", urlsplit(base).netloc) else None)
    page.goto(page_path)
    expect(page.locator(shown).first).to_be_visible()
    if page_path == "/docs":
        expect(page.locator("#swagger-ui")).to_contain_text("/api/games")
    else:
        expect(page.locator("redoc")).to_contain_text("Asobiba")
    page.wait_for_timeout(500)
    assert elsewhere == [], elsewhere
    assert errors == [], errors
    violations = [line for line in console if "Content Security Policy" in line or "integrity" in line]
    assert all("cdn.redoc.ly/redoc/logo-mini.svg" in line for line in violations), violations
