"""
The calling visitor's Django session, for tools with a side effect.

A page calls ``/api/mcp`` with ``fetch``, which sends the page's cookies, so a
tool can act on the visitor's own session (their basket) and on nobody else's.
A client with no session cookie (a desktop MCP client) gets ``None``: it has no
browser session to act on, and the tool says so.
"""

from http.cookies import CookieError, SimpleCookie
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from mcp.server.mcpserver import Context


async def visitor_session(ctx: Context) -> SessionBase | None:
    """Return the caller's existing session, or None when the request has none."""
    headers = ctx.headers or {}
    try:
        cookies = SimpleCookie(headers.get("cookie", ""))
    except CookieError:
        return None
    morsel = cookies.get(settings.SESSION_COOKIE_NAME)
    if morsel is None:
        return None
    engine = import_module(settings.SESSION_ENGINE)
    session: SessionBase = engine.SessionStore(morsel.value)
    # Loading an unknown or expired key clears session_key: that is not the
    # visitor's session, and a tool must not create one on their behalf.
    await session.aitems()
    if session.session_key is None:
        return None
    return session
