"""Where the server may post a push: only ``https`` endpoints on public addresses, so a
subscription cannot make the server send requests into private networks (request forgery).

Checked three times: the URL when a browser subscribes (scheme, no user part, a host), every
address the host resolves to before each post (all must be public), and the address each new
connection actually reached (``guarded_session``), so a DNS answer that changes between the check
and the connection (rebinding) still cannot reach a private address. The subscriber chooses the
host, so its DNS server too: a post's look-up (``Resolver``) runs in a few threads of its own and
is waited for at most ``timeout`` seconds, and the connection goes to the addresses it checked
(no second look-up in the sender thread). No proxy from the
environment, no redirects. The endpoint's server is whoever subscribed, so a post is bounded as a
whole, not only per read (requests' ``timeout`` is per socket operation: a server dripping a byte
at a time would hold a sender thread for ever): one connection per post (``Connection: close``),
cut ``timeout`` seconds after it opened, and at most ``MAX_RESPONSE_BYTES`` of the answer's body
read (the body is only ever logged). The one exception is ``PUSH_ALLOW_LOOPBACK_HTTP``: tests stand in for
the push service on 127.0.0.1 (plain http or https on a loopback address, nothing else)."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError

MAX_ENDPOINT_CHARS = 1024
MAX_RESPONSE_BYTES = 16 * 1024  # of a push service's answer's body: its error text at most
DEFAULT_POST_SECONDS = 10.0  # the whole post, when the caller gives no timeout
DEFAULT_RESOLVE_SECONDS = 2.0  # a post's look-up of its host, when the resolver is given no timeout
RESOLVER_THREADS = 4  # a post's look-ups run in these (a hung one holds one of them, never a sender)
# An allowed answer is reused this long (a push service's few hosts are looked up once, not at every
# post, nor behind a subscriber's hung look-ups); at most this many hosts are remembered.
RESOLVE_CACHE_SECONDS = 30.0
RESOLVE_CACHE_HOSTS = 1024


class EndpointRefused(ValueError):
    """The endpoint is not one the server posts to (the message says why)."""


class ResolveTimeout(EndpointRefused):
    """The endpoint's host was not resolved in time (``Resolver``): not posted to this time."""


def check_url(url: str, allow_loopback_http: bool) -> tuple[str, int, str]:
    """(host, port, scheme) of an endpoint URL the server may post to, or ``EndpointRefused``.
    Addresses are checked separately (``resolve``): this needs no DNS."""
    if not isinstance(url, str) or len(url) > MAX_ENDPOINT_CHARS or any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise EndpointRefused("the endpoint must be a URL of at most 1024 characters without spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise EndpointRefused("the endpoint is not a valid URL") from None
    if parts.scheme == "http" and not allow_loopback_http:
        raise EndpointRefused("push endpoints must use https")
    if parts.scheme not in ("https", "http"):
        raise EndpointRefused("push endpoints must use https")
    if parts.username is not None or parts.password is not None or not parts.hostname:
        raise EndpointRefused("the endpoint needs a host name and no user name or password")
    return parts.hostname, port or (443 if parts.scheme == "https" else 80), parts.scheme


# IPv6 prefixes whose addresses carry an IPv4 address in their last 32 bits: NAT64 (RFC 6052,
# RFC 8215: an IPv6-only network's gateway forwards them to that IPv4 address) and the deprecated
# IPv4-compatible addresses.
_CARRY_IPV4 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"),
               ipaddress.IPv6Network("::/96"))
_RESERVED_V6 = ipaddress.IPv6Network("::/8")  # IPv4-compatible, local-use NAT64, unassigned


def _carried(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address leads to (mapped, 6to4, NAT64, IPv4-compatible), if any."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in _CARRY_IPV4):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_allowed(address: str, scheme: str, allow_loopback_http: bool) -> bool:
    """A public (globally routable) unicast address for https; with the test setting, also a
    loopback address (http or https). Never private, loopback, link-local, shared or reserved,
    nor an IPv6 address that leads to such an IPv4 address (NAT64, 6to4, IPv4-compatible)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        carried = _carried(ip)
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif carried is not None and not (carried.is_global and not carried.is_multicast):
            return False
        elif ip in _RESERVED_V6 and ip not in _CARRY_IPV4[0]:  # ::/8 but the well-known NAT64 prefix
            return False
    if allow_loopback_http and ip.is_loopback:
        return True
    return scheme == "https" and ip.is_global and not ip.is_multicast


def resolve(host: str, port: int, scheme: str, allow_loopback_http: bool) -> list[str]:
    """Every address ``host`` resolves to, all of them allowed, or ``EndpointRefused``. Blocking
    (DNS): call it from a worker thread."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise EndpointRefused(f"the endpoint's host {host!r} cannot be resolved") from None
    addresses = sorted({str(info[4][0]) for info in infos})
    refused = [a for a in addresses if not address_allowed(a, scheme, allow_loopback_http)]
    if not addresses or refused:
        raise EndpointRefused(f"the endpoint's host {host!r} is not on a public address")
    return addresses


def check_endpoint(url: str, allow_loopback_http: bool) -> None:
    """The URL and its addresses (blocking: DNS)."""
    resolve(*check_url(url, allow_loopback_http), allow_loopback_http)


class Resolver:
    """``resolve`` bounded in time: the look-up runs in at most ``threads`` threads of the
    resolver's own (the system's resolver cannot be interrupted; a look-up that hangs holds one of
    them until it gives up, and one not begun when its caller stopped waiting never runs), the
    caller waits at most ``timeout`` seconds. An allowed answer is kept ``RESOLVE_CACHE_SECONDS``
    (every connection's peer is checked again anyway); an address literal needs no look-up."""

    def __init__(self, timeout: float = DEFAULT_RESOLVE_SECONDS, threads: int = RESOLVER_THREADS):
        self.timeout = timeout
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="push-dns")
        self._cache: OrderedDict[tuple, tuple[float, list[str]]] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, url: str, allow_loopback_http: bool) -> list[str]:
        """The URL's allowed addresses, or ``EndpointRefused`` (also when the look-up takes too long)."""
        return self.resolve(*check_url(url, allow_loopback_http), allow_loopback_http)

    def resolve(self, host: str, port: int, scheme: str, allow_loopback_http: bool) -> list[str]:
        try:
            ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            pass
        else:
            if not address_allowed(host, scheme, allow_loopback_http):
                raise EndpointRefused(f"the endpoint's host {host!r} is not on a public address")
            return [host]
        key = (host.lower(), port, scheme, allow_loopback_http)
        now = time.monotonic()
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None and cached[0] > now:
                return cached[1]
        future = self._pool.submit(resolve, host, port, scheme, allow_loopback_http)
        try:
            addresses = future.result(self.timeout)
        except FutureTimeout:
            future.cancel()
            raise ResolveTimeout(f"the endpoint's host {host!r} was not resolved within {self.timeout:g} s") from None
        with self._lock:
            self._cache.pop(key, None)
            self._cache[key] = (now + RESOLVE_CACHE_SECONDS, addresses)
            while len(self._cache) > RESOLVE_CACHE_HOSTS:
                self._cache.popitem(last=False)
        return addresses

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class PeerRefused(NewConnectionError):
    """A connection reached an address the server may not post to; it was closed unused."""


# The sender thread's post under way: when it must end (monotonic), the addresses its host was
# checked to have (connections go to these), and the cut-off timers of the connections it opened
# (cancelled when the post is done).
_post = threading.local()


def _cut(sock: socket.socket) -> None:
    """The post ran out of time: end the connection (a blocked read in the sender thread returns)."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _checked(sock: socket.socket, conn, scheme: str, allow_loopback_http: bool) -> socket.socket:
    peer = sock.getpeername()[0]
    if not address_allowed(peer, scheme, allow_loopback_http):
        sock.close()
        raise PeerRefused(conn, f"refused to post to {peer}: not a public address")
    left = getattr(_post, "until", time.monotonic() + DEFAULT_POST_SECONDS) - time.monotonic()
    timer = threading.Timer(max(0.0, left), _cut, (sock,))
    timer.daemon = True
    timer.start()
    _post.timers = [*getattr(_post, "timers", []), timer]
    return sock


def _connect(conn, connect, scheme: str, allow_loopback_http: bool) -> socket.socket:
    """A new connection of ``conn``, to the post's checked addresses in turn (none checked: the
    host as urllib3 resolves it), its peer checked."""
    addresses = getattr(_post, "addresses", None)
    if not addresses:
        return _checked(connect(), conn, scheme, allow_loopback_http)
    failed: Exception | None = None
    for address in addresses:
        conn._dns_host = address  # (TLS still names and verifies ``conn.host``)
        try:
            return _checked(connect(), conn, scheme, allow_loopback_http)
        except PeerRefused:
            raise
        except ConnectTimeoutError as exc:  # (also NewConnectionError): the next address
            failed = exc
    assert failed is not None
    raise failed


def _seconds(timeout) -> float:
    """The whole post's time limit from requests' ``timeout`` (seconds, or (connect, read))."""
    if isinstance(timeout, (int, float)) and timeout > 0:
        return float(timeout)
    if isinstance(timeout, tuple) and all(isinstance(t, (int, float)) and t > 0 for t in timeout):
        return float(sum(timeout))
    return DEFAULT_POST_SECONDS


def _read_capped(response: requests.Response) -> None:
    """Read at most ``MAX_RESPONSE_BYTES`` of the body into ``response.content``, then close it."""
    body = bytearray()
    try:
        for chunk in response.iter_content(4096):
            body += chunk
            if len(body) >= MAX_RESPONSE_BYTES:
                break
    except (requests.RequestException, OSError):
        pass  # cut off, or broken: the status is what counts
    finally:
        response.close()
    response._content = bytes(body[:MAX_RESPONSE_BYTES])
    response._content_consumed = True


def guarded_session(allow_loopback_http: bool, resolver: Resolver | None = None) -> requests.Session:
    """A requests session that checks each connection's peer address, follows no redirect and
    takes no proxy or credentials from the environment. With a ``resolver``, each post's host is
    looked up by it (bounded; ``EndpointRefused``) and connected to at the addresses it checked."""

    class GuardedHTTP(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, super()._new_conn, "http", allow_loopback_http)

    class GuardedHTTPS(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, super()._new_conn, "https", allow_loopback_http)

    class HTTPPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTP

    class HTTPSPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPS

    class Adapter(HTTPAdapter):
        def init_poolmanager(self, *args, **kwargs) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = {"http": HTTPPool, "https": HTTPSPool}

    class Session(requests.Session):
        def request(self, method, url, *args, **kwargs):
            """The same call, never following a redirect, bounded as a whole (module docstring)."""
            kwargs["allow_redirects"] = False
            kwargs["stream"] = True
            kwargs["headers"] = {**(kwargs.get("headers") or {}), "Connection": "close"}
            if resolver is not None:
                _post.addresses = resolver.check(url, allow_loopback_http)
            _post.until = time.monotonic() + _seconds(kwargs.get("timeout"))
            try:
                response = super().request(method, url, *args, **kwargs)
                _read_capped(response)
                return response
            finally:
                for timer in getattr(_post, "timers", []):
                    timer.cancel()
                _post.timers = []
                del _post.until
                _post.addresses = None

    session = Session()
    session.trust_env = False  # no HTTP(S)_PROXY, no .netrc
    for prefix in ("http://", "https://"):
        session.mount(prefix, Adapter(max_retries=0))
    return session


class SessionPerThread(threading.local):
    """One guarded session per sender thread (a requests session is not meant to be shared)."""

    def __init__(self, allow_loopback_http: bool, resolver: Resolver | None = None):
        self.session = guarded_session(allow_loopback_http, resolver)
