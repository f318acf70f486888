"""Who a client is, for the limits on what one client may claim (quotas.py): the tables it has
opened, their bots, its hints and analyses in flight, and its share of the bot workers.

A logged-in player is its account, wherever it connects from. A guest is its network address, as
the server sees it behind a trusted proxy (uvicorn reads `X-Forwarded-For` from the addresses in
`FORWARDED_ALLOW_IPS`); an IPv6 guest is its /64 network: one machine is handed a whole /64 and
can change addresses within it at will.
"""

from __future__ import annotations

import ipaddress

UNKNOWN = "address:unknown"  # a connection whose address the server was not told (a test client, a socket file)


def client_key(address: str | None, account: str | None = None) -> str:
    """The key one client's claims are counted under: its account when it has one, else its address."""
    if account:
        return "account:" + account
    if not address:
        return UNKNOWN
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return "address:" + address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return "address:" + str(ip.ipv4_mapped)
        return "address:" + str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return "address:" + str(ip)
