"""
The route id: which server process a browser and its wallet meet on.

A browser carries a random route id in a cookie (``BYOA["ROUTE_COOKIE"]``), set by
``POST /byoa/code`` with the link, and the link's endpoint carries the same id as its last path
segment (``wss://host/byoa/ws/<route id>``), so a proxy that hashes it
(deploy/nginx.conf.template) brings both to one process. It is no secret and grants nothing.
One shape, ``ROUTE_ID_PATTERN`` (22 URL-safe characters): ``route_id_from`` returns None for
any other. Why this id and no other: docs/explanation/modules.md.
"""

import re
import secrets
from urllib.parse import urlsplit, urlunsplit

from django.http import HttpRequest, HttpResponseBase

from byoa.conf import byoa_setting

__all__ = [
    "ROUTE_COOKIE_SECONDS",
    "ROUTE_ID_PATTERN",
    "new_route_id",
    "is_route_id",
    "route_id_from",
    "route_id_for",
    "set_route_cookie",
    "routed_endpoint",
]

#: 16 random bytes in base64url: 22 characters, as a session code's alphabet (no padding).
ROUTE_ID_BYTES = 16
ROUTE_ID_PATTERN = r"[A-Za-z0-9_-]{22}"
_ROUTE_ID = re.compile(ROUTE_ID_PATTERN)

#: A year. A pairing's wallet keeps coming back to the endpoint it was given for as long
#: as the grant lasts, which may outlive a session cookie (two weeks): the page must keep
#: hashing to the same process meanwhile. The id grants nothing, so a long life costs nothing.
ROUTE_COOKIE_SECONDS = 365 * 24 * 60 * 60


def new_route_id() -> str:
    """Return a new random route id."""
    return secrets.token_urlsafe(ROUTE_ID_BYTES)


def is_route_id(value: object) -> bool:
    """Return True when ``value`` has the route id's shape (22 URL-safe characters)."""
    return isinstance(value, str) and _ROUTE_ID.fullmatch(value) is not None


def route_id_from(request: HttpRequest) -> str | None:
    """Return the route id this request's cookie carries, or None (none, or not of the shape)."""
    value = request.COOKIES.get(byoa_setting("ROUTE_COOKIE"))
    return value if is_route_id(value) else None


def route_id_for(request: HttpRequest) -> str:
    """Return this browser's route id: its cookie's, or a new one when it has none that is valid."""
    return route_id_from(request) or new_route_id()


def set_route_cookie(response: HttpResponseBase, request: HttpRequest, route_id: str) -> None:
    """Set (or renew) the route id's cookie on ``response``.

    HttpOnly (no script needs it), SameSite=Lax (as Django's session cookie),
    Secure when the request came over TLS: a plain-http page on localhost in
    development still gets it.
    """
    if not is_route_id(route_id):
        raise ValueError(f"a route id is 22 URL-safe characters; got {len(str(route_id))} characters")
    response.set_cookie(
        byoa_setting("ROUTE_COOKIE"),
        route_id,
        max_age=ROUTE_COOKIE_SECONDS,
        path="/",
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )


def routed_endpoint(endpoint: str, route_id: str) -> str:
    """Return the wallet route's URL with the route id as its last path segment.

    ``wss://host/byoa/ws`` becomes ``wss://host/byoa/ws/<route id>`` (a query,
    if ``BYOA["ENDPOINT"]`` has one, stays after it); the wallet route accepts
    both (``byoa.routing``), so old links keep working.
    """
    if not is_route_id(route_id):
        raise ValueError(f"a route id is 22 URL-safe characters; got {len(str(route_id))} characters")
    parts = urlsplit(endpoint)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}/{route_id}"))
