"""Refusing unsafe destinations (SSRF guard).

A crawl target must be http(s) and resolve only to public addresses.  Loopback is allowed when the
policy says so (local servers); private, link-local (cloud metadata 169.254.169.254), multicast,
reserved and unspecified addresses never are.  Every address a name resolves to is checked, so a name
with one public and one private record is refused.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from jobctrl.politeness.errors import UnsafeDestination

_METADATA_NAMES = frozenset({"metadata", "metadata.google.internal", "metadata.goog", "instance-data"})
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class DnsFailure(Exception):
    """The name did not resolve (the gateway maps this per context: robots vs page fetch)."""


def split_http_url(url: str) -> SplitResult:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeDestination(f"only absolute http(s) URLs are fetched, not {url[:80]!r}")
    if parts.username or parts.password:
        raise UnsafeDestination("URLs with credentials are not fetched")
    return parts


def address_is_safe(address: IpAddress, *, allow_loopback: bool) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return allow_loopback
    return not (
        address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


async def check_destination(url: str, *, allow_loopback: bool) -> None:
    """Raise ``UnsafeDestination`` unless every address of the URL's host is acceptable.

    Raises ``DnsFailure`` when the name does not resolve.
    """
    host = (split_http_url(url).hostname or "").rstrip(".").lower()
    if host in _METADATA_NAMES:
        raise UnsafeDestination(f"metadata host {host!r} refused")
    if host in _LOOPBACK_NAMES:
        if allow_loopback:
            return
        raise UnsafeDestination(f"loopback host {host!r} refused")
    try:
        literal: IpAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    addresses: list[IpAddress]
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise DnsFailure(host) from exc
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    for address in addresses:
        if not address_is_safe(address, allow_loopback=allow_loopback):
            raise UnsafeDestination(f"{host!r} resolves to a non-public address")
