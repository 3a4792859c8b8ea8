"""Run the real app on a free localhost port: in a thread (so a test can hold its FakeClock) or as
a separate process started with the README's start command (so a test can SIGKILL it)."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import httpx
import uvicorn

from app.db import migrate
from app.main import create_app
from app.serving import uvicorn_config
from app.settings import ROOT, Settings
from tests.support.clients import TLS

# Long and random-looking, as the server requires of ADMIN_TOKEN (app/settings.py).
ADMIN_TOKEN = "tests-only-admin-Vb3k9QmX2pLr7TnW4yZc8HdJ"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class RunningServer:
    base_url: str
    ws_url: str
    clock: object = None
    app: object = None
    stop: object = field(default=None, repr=False)


def settings_for(database_url: str, port: int, **overrides) -> Settings:
    values = dict(database_url=database_url, host="127.0.0.1", port=port, admin_token=ADMIN_TOKEN,
                  bot_think_seconds=0.0)
    values.update(overrides)
    return Settings(**values)


def start_in_thread(database_url: str, clock=None, **overrides) -> RunningServer:
    migrate(database_url)
    port = free_port()
    settings = settings_for(database_url, port, **overrides)
    app = create_app(settings, clock=clock)
    # The start command's uvicorn settings (app/serving.py), logging aside.
    config = uvicorn_config(app, settings, log_config=uvicorn.config.LOGGING_CONFIG, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until_up(f"http://127.0.0.1:{port}")

    def stop():
        server.should_exit = True
        thread.join(timeout=10)

    return RunningServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", clock, app, stop)


class ServerProcess:
    """The server as its own process (``python -m app``), as the README starts it."""

    def __init__(self, database_url: str, port: int | None = None, env: dict[str, str] | None = None,
                 open_files: int | None = None):
        """``open_files``: the process's limit on open files (soft and hard), as a small host's."""
        self.database_url = database_url
        self.port = port or free_port()
        self.env = env or {}
        self.open_files = open_files
        self.process: subprocess.Popen | None = None
        self.output: list[str] = []  # every line the process printed (stdout and stderr), read as it comes

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        # (PYTHONFAULTHANDLER: a process that dies of a signal prints where, instead of nothing)
        env = {**os.environ, "DATABASE_URL": self.database_url, "PORT": str(self.port), "HOST": "127.0.0.1",
               "ADMIN_TOKEN": ADMIN_TOKEN, "BOT_THINK_SECONDS": "0", "SHUTDOWN_UNREADY_SECONDS": "0",
               "PYTHONFAULTHANDLER": "1", **self.env}
        self.output = []
        limit = self.open_files
        self.process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                        preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit)))
                                        if limit else None,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        first_line = self.process.stdout.readline()
        if f"http://127.0.0.1:{self.port}/" not in first_line:  # it did not start: say how it ended
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            rest = self.process.stdout.read()
            raise AssertionError(f"the server did not start (exit code {self.process.returncode}): {first_line}{rest}")
        self.output.append(first_line)
        # Keep reading, so a chatty log never fills the pipe and blocks the server.
        threading.Thread(target=self._collect, args=(self.process,), daemon=True).start()
        wait_until_up(self.base_url)

    def _collect(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.output.append(line)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_until_up(base_url: str, timeout: float = 20.0) -> None:
    """Until the server (or a proxy in front of it) answers ``GET /api/games``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base_url}/api/games", timeout=1, verify=TLS).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"server at {base_url} did not come up")
