"""The address a phone on the table's network reaches the recorder at, for its printed link, seat links and QR codes.

A server bound to one address is reached there. One bound to every interface (``0.0.0.0``, ``::``) is reached at the
machine's LAN address: the address of the interface the default route leaves by, found by asking the system which
address a UDP socket "connected" to an address outside the machine would send from. A UDP connect sends nothing,
so this needs no network access and works on a table's LAN without internet. The host name's address is no answer:
on Debian or a Raspberry Pi it is 127.0.1.1, which no phone reaches.
"""

from __future__ import annotations

import ipaddress
import socket

WILDCARDS = ("0.0.0.0", "::", "")
"""The binds that listen on every interface."""
_OUTSIDE = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
"""Addresses outside any machine (the documentation ranges, RFC 5737 and RFC 3849): only a route to them is asked."""


def lan_address(family: int = socket.AF_INET) -> str | None:
    """The machine's address on the interface of its default route in ``family`` (None: no such route, or only a
    loopback one)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((_OUTSIDE[family], 9))  # a UDP connect chooses the route and sends nothing
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback or ipaddress.ip_address(address).is_unspecified \
        else address


def reachable(host: str) -> tuple[str, str | None]:
    """The host part of the URL devices use for a server bound to ``host``, and a warning to print (None: none):
    the bound address itself, or for a wildcard bind the LAN address (IPv4 first, then IPv6), else this machine's
    loopback address with a warning that phones will not reach it (give ``--url``)."""
    if host not in WILDCARDS:
        return (f"[{host}]" if ":" in host else host), None
    for family in (socket.AF_INET, socket.AF_INET6):
        found = lan_address(family)
        if found is not None:
            return (f"[{found}]" if family == socket.AF_INET6 else found), None
    return "127.0.0.1", ("this machine has no network route, so the links name 127.0.0.1, which no phone reaches: "
                         "give --url http://ADDRESS:PORT with the address the phones can reach")
