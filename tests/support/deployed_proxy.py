"""The repository's deploy/haproxy.cfg run on loopback in front of one server process: its
settings as they are (headers it sets, timeouts, health check), with only what names the network
changed (the bind address, and the docker DNS server template replaced by the server's port) and
``maxconn`` lowered to what a test machine's open-file limit allows."""

from __future__ import annotations

import re
import shutil
import subprocess

from app.settings import ROOT
from tests.support.server import free_port, wait_until_up

HAPROXY = "/usr/sbin/haproxy"


def loopback_config(frontend_port: int, backend_port: int) -> str:
    text = (ROOT / "deploy" / "haproxy.cfg").read_text()
    text = re.sub(r"\nresolvers docker\n(?:[ \t]+.*\n)+", "\n", text)
    text = re.sub(r"(?m)^(\s*)bind :8000\s*$", rf"\1bind 127.0.0.1:{frontend_port}", text)
    text = text.replace(" resolvers docker init-addr none", "")
    text = re.sub(r"(?m)^(\s*)maxconn \d+\s*$", r"\1maxconn 2000", text)
    text, replaced = re.subn(r"(?m)^(\s*)server-template app \d+ app:8000\s*$", rf"\1server app1 127.0.0.1:{backend_port}", text)
    assert replaced == 1 and "resolvers" not in text, text
    return text.rstrip("\n") + "\n"  # (the last line is a substitution's, without its newline)


class DeployedProxy:
    def __init__(self, backend_port: int, folder):
        assert shutil.which(HAPROXY), "HAProxy is missing (scripts/test installs it)"
        self.port = free_port()
        self.config = folder / "haproxy.cfg"
        self.config.write_text(loopback_config(self.port, backend_port))
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([HAPROXY, "-db", "-f", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_up(self.base_url)  # (through HAProxy: once its /readyz check has the server UP)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
