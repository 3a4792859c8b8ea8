"""``/healthz`` and ``/readyz`` on a real server: ready when the database (and Redis, when
configured) answers; 503 with the reason when PostgreSQL is cut off or Redis is unreachable,
and ready again once they are back."""

from __future__ import annotations

import secrets
import socket

import httpx
import pytest

from tests.support.databases import KINDS
from tests.support.server import start_in_thread
from tests.support.tcp_proxy import TcpProxy, server_behind_proxy

REDIS = ("127.0.0.1", 6379)


def test_alive_and_ready(server):
    assert httpx.get(f"{server.base_url}/healthz").json() == {"status": "ok"}
    ready = httpx.get(f"{server.base_url}/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}


def test_readiness_follows_redis(database_url):
    socket.create_connection(REDIS, timeout=2).close()  # the machine's Redis must be up
    proxy = TcpProxy(*REDIS)
    # With REDIS_URL the process is a cluster member (app/cluster/): its keys get a fresh prefix.
    server = start_in_thread(database_url, redis_url=f"redis://127.0.0.1:{proxy.port}/0",
                             cluster_prefix=f"ops-{secrets.token_hex(4)}")
    try:
        assert httpx.get(f"{server.base_url}/readyz").status_code == 200
        proxy.cut()
        down = httpx.get(f"{server.base_url}/readyz")
        assert down.status_code == 503
        assert down.json()["status"] == "unavailable"
        assert [reason.split(":")[0] for reason in down.json()["reasons"]] == ["redis"]
        proxy.restore()
        assert httpx.get(f"{server.base_url}/readyz").status_code == 200
    finally:
        server.stop()


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind == "postgresql"])
def test_readiness_503_when_postgresql_is_cut(kind, tmp_path):
    """The app reaches PostgreSQL through a proxy; cutting it makes /readyz say why, at once."""
    with server_behind_proxy(kind, tmp_path) as (server, proxy, url):
        assert httpx.get(f"{server.base_url}/readyz").status_code == 200
        proxy.cut()
        down = httpx.get(f"{server.base_url}/readyz", timeout=10)
        assert down.status_code == 503
        assert down.json()["reasons"][0].startswith("database: ")
        assert httpx.get(f"{server.base_url}/healthz").status_code == 200  # alive, just not ready
        proxy.restore()
        assert httpx.get(f"{server.base_url}/readyz", timeout=10).status_code == 200
