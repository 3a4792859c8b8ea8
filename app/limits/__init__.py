"""Abuse throttling: credit buckets per token and per IP (lichess-style), and bounds on how many
sockets, spectators and open rooms one client may hold.

``Limiter`` (``limiter.py``) applies the rules from ``Settings``; buckets live in a ``BucketStore``
(``store.py``): in memory for one process, and behind the same small protocol a shared store (Redis)
for a cluster. ``rest.py`` has the FastAPI dependencies, ``sockets.py`` the live-socket side."""

from app.limits.limiter import Limiter, RateLimited, Rule, client_keys
from app.limits.store import BucketStore, MemoryBucketStore

__all__ = ["BucketStore", "Limiter", "MemoryBucketStore", "RateLimited", "Rule", "client_keys"]
