"""Behind the repository's HAProxy configuration (deploy/haproxy.cfg, real /usr/sbin/haproxy), a
client's own X-Forwarded-For no longer picks its per-IP buckets (issue 30, point 3): an attacker
rotating the header is limited like any client, and the owner, from another address, still logs in;
and one address cannot hold the proxy's connections."""

from __future__ import annotations

import socket
import time

import pytest

from tests.support.clients import client_from
from tests.support.deployed_proxy import DeployedProxy
from tests.support.server import ServerProcess

PASSWORD = "correct horse battery staple"



@pytest.mark.parametrize("trusted", ["127.0.0.1", "*"])  # the proxy's address here, or any peer
def test_a_client_cannot_pick_its_address_behind_the_proxy(tmp_path, trusted):
    server = ServerProcess(f"sqlite:///{tmp_path / 'xff.db'}",
                           env={"FORWARDED_ALLOW_IPS": trusted, "RATE_LOGINS_PER_IP": "5/600"})
    server.start()
    proxy = DeployedProxy(server.port, tmp_path)
    proxy.start()
    try:
        owner = client_from("127.0.0.2", proxy.base_url)
        guest = owner.post("/api/players", json={"name": "Owner"}).json()
        claimed = owner.post("/api/accounts", json={"password": PASSWORD},
                             headers={"Authorization": f"Bearer {guest['token']}"})
        assert claimed.status_code in (200, 201), claimed.text

        attacker = client_from("127.0.0.1", proxy.base_url)
        answers = [attacker.post("/api/accounts/login", json={"name": "Owner", "password": f"guess {n}"},
                                 headers={"X-Forwarded-For": f"203.0.113.{n}", "X-Real-IP": f"203.0.113.{n}"})
                   for n in range(1, 13)]
        codes = [answer.status_code for answer in answers]
        assert codes.count(429) >= 7 and all(code in (401, 429) for code in codes), codes
        # The owner's address has buckets of its own: the flood did not spend them.
        login = owner.post("/api/accounts/login", json={"name": "Owner", "password": PASSWORD})
        assert login.status_code == 200, login.text
        # Nor does a client's X-Forwarded-Proto pass: over plain HTTP there is no HSTS.
        assert "strict-transport-security" not in attacker.get("/", headers={"X-Forwarded-Proto": "https"}).headers
    finally:
        proxy.stop()
        server.stop()


def test_one_address_holds_at_most_200_connections_at_the_proxy(tmp_path):
    """deploy/haproxy.cfg turns away an address's connections past 200; others still get in."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'conns.db'}", env={"FORWARDED_ALLOW_IPS": "127.0.0.1"})
    server.start()
    proxy = DeployedProxy(server.port, tmp_path)
    proxy.start()
    crowd = []
    try:
        for _ in range(230):
            sock = socket.socket()
            sock.bind(("127.0.0.3", 0))
            sock.connect(("127.0.0.1", proxy.port))
            crowd.append(sock)
        time.sleep(0.5)
        closed = 0
        for sock in crowd:
            sock.settimeout(0.05)
            try:
                closed += sock.recv(1) == b""
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed += 1
        assert 25 <= closed <= 30, closed  # the 201st and later
        assert client_from("127.0.0.2", proxy.base_url).get("/healthz").status_code == 200
    finally:
        for sock in crowd:
            sock.close()
        proxy.stop()
        server.stop()
