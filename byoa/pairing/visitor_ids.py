"""
Which browser session a code or a pairing belongs to.

A random id kept in the Django session, not the session key itself: the key
changes at login (``cycle_key``) while the session's data, and so this id,
carries over.
"""

import secrets

from django.http import HttpRequest

SESSION_KEY = "byoa_visitor"


def visitor_id(request: HttpRequest) -> str:
    """Return the BYOA id of this request's browser session, creating it on first use."""
    visitor: str | None = request.session.get(SESSION_KEY)
    if not visitor:
        visitor = secrets.token_urlsafe(18)
        request.session[SESSION_KEY] = visitor
    return visitor


def existing_visitor_id(request: HttpRequest) -> str | None:
    """Return the BYOA id of this browser session, or None when it never asked for a code."""
    visitor: str | None = request.session.get(SESSION_KEY)
    return visitor


async def aexisting_visitor_id(request: HttpRequest) -> str | None:
    """Return the BYOA id of this browser session from an async view, or None."""
    visitor: str | None = await request.session.aget(SESSION_KEY)
    return visitor
