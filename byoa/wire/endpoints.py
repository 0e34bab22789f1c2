"""
The host rules of the WebSocket endpoint a link carries (specs/byoa-sites.md,
"Checks before anything else"): ``wss://`` on a public DNS name; no IP address in any spelling,
no localhost, no .local, .home.arpa, .internal or .lan, no single-label name. One definition for
both ends: the headless wallet refuses a link by them, and the server builds no link that breaks
them. It needs no Django. ``dev_local`` (the wallet's ``BYOA_WALLET_DEV_LOCAL=1``; the server's
counterpart is DEBUG) also allows ``ws://`` and ``wss://`` to localhost, 127.0.0.1 and [::1].
"""

import ipaddress
import re
import socket
from urllib.parse import urlsplit

LOCAL_SUFFIXES = (".localhost", ".local", ".home.arpa", ".internal", ".lan")
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def problem(endpoint: object, *, dev_local: bool = False) -> str:
    """Return why a wallet refuses this endpoint, or "" when it accepts it."""
    if not isinstance(endpoint, str):
        return "the endpoint is not a URL"
    try:
        parts = urlsplit(endpoint)
        hostname = (parts.hostname or "").rstrip(".").lower()
        parts.port  # noqa: B018  (raises for a bad port)
    except ValueError:
        return "the endpoint is not a URL"
    if parts.fragment or parts.username or parts.password or "@" in parts.netloc:
        return "the endpoint has credentials or a fragment"
    if dev_local and hostname in LOOPBACK and parts.scheme in ("ws", "wss"):
        return ""
    if parts.scheme != "wss":
        return "the endpoint is not wss://"
    if not hostname or _is_ip_spelling(hostname):
        return "the endpoint's host is an IP address or empty"
    if hostname == "localhost" or hostname.endswith(LOCAL_SUFFIXES) or "." not in hostname:
        return "the endpoint's host is a local or single-label name"
    return ""


def is_loopback(hostname: str) -> bool:
    """Return True for localhost, 127.0.0.1 and ::1 (bracketed or not), the developer switch's hosts."""
    return hostname.strip("[]").rstrip(".").lower() in LOOPBACK


def _is_ip_spelling(hostname: str) -> bool:
    if hostname.startswith("[") or ":" in hostname:
        return True
    try:
        ipaddress.ip_address(hostname)
        return True
    except ValueError:
        pass
    # inet_aton reads 2130706433, 0x7f.1, 0177.0.0.1 and 127.1 as addresses, as
    # browsers and resolvers do; a name whose last label is a number is one too.
    try:
        socket.inet_aton(hostname)
        return True
    except OSError:
        pass
    last = hostname.rsplit(".", 1)[-1]
    return bool(re.fullmatch(r"[0-9]+|0x[0-9a-f]*", last))
