"""A cluster on loopback for tests: N server processes (``python -m app`` with ``REDIS_URL`` and a
random ``CLUSTER_PREFIX``) on one PostgreSQL database, behind Debian's HAProxy balancing round
robin (no stickiness), as ``docker-compose.yml`` runs it."""

from __future__ import annotations

import shutil
import subprocess

from tests.support.redis import REDIS_URL, delete_prefix, random_prefix
from tests.support.server import ServerProcess, free_port, wait_until_up

HAPROXY = "/usr/sbin/haproxy"

CONFIG = """\
global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option redispatch
    retries 3
frontend web
    bind 127.0.0.1:{port}
    default_backend app
backend app
    balance roundrobin
    option httpchk GET /api/games
    # A killed process refuses the check at once (down within 2 × 300 ms); a live one slowed by a
    # loaded machine gets 2 s to answer, not the 300 ms interval (every process marked down => 503).
    timeout check 2s
    default-server inter 300ms fall 2 rise 2
{servers}
"""


class HaProxy:
    def __init__(self, backend_ports: list[int], folder):
        assert shutil.which(HAPROXY) or shutil.which("haproxy"), "HAProxy is missing (scripts/test installs it)"
        self.port = free_port()
        self.config = folder / "haproxy.cfg"
        servers = "\n".join(f"    server s{i} 127.0.0.1:{p} check" for i, p in enumerate(backend_ports))
        self.config.write_text(CONFIG.format(port=self.port, servers=servers))
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = HAPROXY if shutil.which(HAPROXY) else shutil.which("haproxy")
        self.process = subprocess.Popen([binary, "-db", "-f", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_up(f"http://127.0.0.1:{self.port}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class LocalCluster:
    def __init__(self, database_url: str, folder, size: int = 3, redis_url: str = REDIS_URL,
                 redis_urls: dict[int, str] | None = None, **env: str):
        """``redis_urls`` gives some servers (by index) another way to the same Redis."""
        self.redis_url = redis_url
        self.prefix = random_prefix()
        settings = {"REDIS_URL": redis_url, "CLUSTER_PREFIX": self.prefix, **env}
        self.servers = [ServerProcess(database_url, env=dict(settings, REDIS_URL=(redis_urls or {}).get(i, redis_url)))
                        for i in range(size)]
        self.proxy = HaProxy([s.port for s in self.servers], folder)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.proxy.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.proxy.port}"

    def start(self) -> "LocalCluster":
        for server in self.servers:  # one by one: the first migrates the database
            server.start()
        self.proxy.start()
        return self

    def stop(self) -> None:
        self.proxy.stop()
        for server in self.servers:
            server.stop()
        delete_prefix(self.redis_url, self.prefix)

    def __enter__(self) -> "LocalCluster":
        return self.start()

    def __exit__(self, exc_type, *_) -> None:
        self.stop()
        if exc_type is not None:  # shown with the failure: what each process logged last (not HAProxy's checks)
            for index, server in enumerate(self.servers):
                print(f"--- server {index} (port {server.port}), last lines ---")
                print("".join([line for line in server.output if "GET /api/games " not in line][-400:]))
