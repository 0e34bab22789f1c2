"""
The route id: which server process a browser and its wallet meet on.

With several server processes behind a proxy (docs/howto/deploy.md), a call
costs about a hundred times less when the page's request lands on the process
that holds its wallet's connection. A browser carries a random route id in a
cookie (``BYOA["ROUTE_COOKIE"]``), and the link's endpoint carries the same id
as its last path segment (``wss://host/byoa/ws/<route id>``); the proxy hashes
the id from whichever it sees (deploy/nginx.conf.template), so both reach one
process. A wallet that comes back with its pairing token reopens the endpoint
it was given (specs/byoa-sites.md: it reconnects to the link's endpoint), so it
comes back to the same process too.

The id is not a secret and grants nothing: the wallet authenticates by its
hello alone, and the consumer never reads the segment. It reveals nothing
either: 128 random bits, made for this alone, not derived from the session,
the visitor id, a pairing, a user or a process. It is not the session key,
which changes at login (``cycle_key``) and would move the page away from its
wallet; nor is it kept in the session, since a page view stores none
(DESIGN.md, "Security rules") while the proxy needs the id before any view runs.

It is set where the page first needs the wallet, by ``POST /byoa/code``
(``byoa.views.code``), on the response that carries the link: before that the
page has no wallet to meet, and every other request may land anywhere.

One fixed shape, ``ROUTE_ID_PATTERN``: 22 URL-safe characters. A cookie or a
path segment of any other shape is not a route id (``route_id_from`` returns
None, and the wallet route refuses such a path: ``byoa.routing``); nginx's map
checks the same shape.
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
