"""
The checks the wallet applies to a ``bringyourownagent://connect`` link before
anything else (specs/byoa-sites.md, "Checks before anything else"), and to
the address it connects to after the visitor's Allow. The endpoint's host
rules are ``byoa.wire.endpoints``, which the server applies to the links it builds.

``BYOA_WALLET_DEV_LOCAL=1`` (or ``dev_local=True``) additionally allows
``ws://`` and ``wss://`` to localhost, 127.0.0.1 and [::1], for local tests.
"""

import base64
import binascii
import ipaddress
import json
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import bringyourownagent

from byoa.environment import env_flag
from byoa.wire import endpoints
from byoa.wire.protocol import MAX_MANIFEST_BYTES
from testwallet.direct.exceptions import LinkRefused

_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")
_CODE = re.compile(r"[A-Za-z0-9_-]{22,256}")

# What to change, said once with each refusal.
NEW_LINK = "ask the page for a new link and pass it whole, in quotes for the shell"
DEV_LOCAL = (
    "for a site on this machine, allow ws://localhost, 127.0.0.1 and [::1] with --dev-local "
    "or BYOA_WALLET_DEV_LOCAL=1 (DirectWallet(dev_local=True) in code); local tests only"
)
BAD_MANIFEST = (
    "the site's manifest must be fixed (its manage.py check names the problem), then a new link made"
)
PUBLIC_ENDPOINT = "the site must name its wallet route as wss:// on a public DNS name (its BYOA['ENDPOINT'])"


@dataclass(frozen=True)
class Link:
    """A link that passed every check."""

    endpoint: str
    manifest_text: str  # base64url, exactly as in the link: the welcome must echo it
    manifest: dict[str, Any]
    session: str


def dev_local_from_env() -> bool:
    """Return True when BYOA_WALLET_DEV_LOCAL asks for ws://localhost."""
    return env_flag("BYOA_WALLET_DEV_LOCAL")


def check_link(link: object, *, dev_local: bool | None = None) -> Link:
    """Return the Link, or raise LinkRefused naming the check that failed.

    ``link`` is whatever a visitor or a page handed over: anything but a string is refused too.
    """
    dev_local = dev_local_from_env() if dev_local is None else dev_local
    if not isinstance(link, str) or len(link) > 16384:
        raise LinkRefused("form", "the link is not a string of a sensible length", NEW_LINK)
    if "#" in link:
        raise LinkRefused("fragment", "the link has a fragment", NEW_LINK)
    parts = urlsplit(link)
    if parts.scheme != "bringyourownagent" or parts.netloc != "connect" or parts.path not in ("", "/"):
        raise LinkRefused("form", "the link is not a bringyourownagent://connect link", NEW_LINK)
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise LinkRefused("form", "the link's query is malformed", NEW_LINK) from None
    names = [name for name, _value in pairs]
    if len(names) != len(set(names)):
        raise LinkRefused("repeated-parameter", "a parameter of the link is repeated", NEW_LINK)
    params = dict(pairs)
    if params.get("v") != "0.1":
        raise LinkRefused("version", "the link is not of version 0.1", "this wallet takes v=0.1 links only")
    endpoint = check_endpoint(params.get("endpoint", ""), dev_local=dev_local)
    manifest_text, manifest = check_manifest(params.get("manifest", ""))
    session = params.get("session", "")
    if not _CODE.fullmatch(session):
        raise LinkRefused("session", "the session code is not 22 to 256 URL-safe characters", NEW_LINK)
    return Link(endpoint, manifest_text, manifest, session)


def check_endpoint(endpoint: str, *, dev_local: bool = False) -> str:
    """Return the endpoint when it is wss:// on a public DNS name (or allowed local)."""
    reason = endpoints.problem(endpoint, dev_local=dev_local)  # the one definition, shared with the server
    if reason:
        local = not dev_local and not endpoints.problem(endpoint, dev_local=True)  # allowed with the switch
        raise LinkRefused("endpoint", reason, DEV_LOCAL if local else f"{PUBLIC_ENDPOINT}; {DEV_LOCAL}")
    return endpoint


def check_manifest(text: str) -> tuple[str, dict[str, Any]]:
    """Return (text, manifest) when it is base64url, unpadded, at most 4096 bytes and valid."""
    if not _BASE64URL.fullmatch(text or ""):
        raise LinkRefused("manifest", "the manifest is not base64url without padding", BAD_MANIFEST)
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise LinkRefused("manifest", "the manifest is not base64url", BAD_MANIFEST) from None
    if len(raw) > MAX_MANIFEST_BYTES:
        raise LinkRefused("manifest", f"the manifest is over {MAX_MANIFEST_BYTES} bytes", BAD_MANIFEST)
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise LinkRefused("manifest", "the manifest is not UTF-8 JSON", BAD_MANIFEST) from None
    if not isinstance(manifest, dict):
        raise LinkRefused("manifest", "the manifest is not a JSON object", BAD_MANIFEST)
    if not bringyourownagent.validate_manifest(manifest)["ok"]:
        raise LinkRefused("manifest", "the manifest breaks the draft rules", BAD_MANIFEST)
    return text, manifest


async def resolve_public(host: str, port: int, *, dev_local: bool = False) -> str:
    """Resolve a host and return an address that is not private, loopback or special."""
    import asyncio

    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(sockaddr[0])
        if address.is_global or (dev_local and address.is_loopback and endpoints.is_loopback(host)):
            return str(sockaddr[0])  # already a str for AF_INET and AF_INET6
    raise LinkRefused(
        "address",
        "the endpoint resolves only to private or special addresses",
        f"{PUBLIC_ENDPOINT}; {DEV_LOCAL}" if not dev_local else PUBLIC_ENDPOINT,
    )


def site_of(endpoint: str) -> str:
    """Return the site an endpoint belongs to: its scheme, host and port, not its path.

    A site's links name one wallet route with a different last segment per
    browser (the route id of byoa.pairing.route_ids): a site forgotten on one link stays
    forgotten on the next.
    """
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{parts.port or ''}"
