"""A TCP forwarder in front of a real service (PostgreSQL, Redis) that a test can cut: ``cut()``
closes the listener and every forwarded connection, as a network partition or a dead database
host would look to the app; ``restore()`` listens again on the same port."""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager

from sqlalchemy.engine import make_url


class TcpProxy:
    def __init__(self, upstream_host: str, upstream_port: int):
        self.upstream = (upstream_host, upstream_port)
        self.port = 0
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            sockets, self._open = list(self._open), set()
            listener, self._listener = self._listener, None
        for sock in [listener, *sockets]:
            if sock is None:
                continue
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@contextmanager
def server_behind_proxy(kind: str, tmp_path):
    """A fresh, migrated database of ``kind`` and a server that reaches it only through a
    ``TcpProxy`` the test can cut; yields (server, proxy, the database's own URL)."""
    from app.db import migrate
    from tests.support.databases import migrated_database
    from tests.support.server import start_in_thread

    with migrated_database(kind, tmp_path) as url:
        migrate(url)
        real = make_url(url)
        proxy = TcpProxy(real.host or "127.0.0.1", real.port or 5432)
        server = start_in_thread(real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False))
        try:
            yield server, proxy, url
        finally:
            server.stop()
            proxy.cut()
