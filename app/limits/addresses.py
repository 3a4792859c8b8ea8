"""What one client is counted as, wherever the server bounds clients by address: the serving layer's
open connections (app/serving.py) and the caps on one address's running tables and bots
(app/limits/tables.py). An IPv6 client is its /64: a host is given a whole /64, so counting its
full addresses would let it rotate through them."""

from __future__ import annotations

import ipaddress


def address_key(host: str | None) -> str | None:
    """What one client's connections are counted under: its IPv4 address (an IPv4-mapped IPv6 one
    unwrapped), or its IPv6 address's /64 (a host is given a whole /64); None for no IP peer."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
