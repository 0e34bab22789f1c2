"""
The calling visitor's Django session, for tools with a side effect.

A page's ``fetch`` to ``/api/mcp`` sends its cookies, so a tool acts on the visitor's own session
and nobody else's; a client with no session cookie (a desktop MCP client) gets ``None``.
``visitor_session(ctx, create=True)`` starts a session for a browser page (a request with an
``Origin``) that has none yet, and ``mcp_server.asgi`` sends its cookie with the answer, as
Django's SessionMiddleware would. Why: docs/explanation/modules.md.
"""

from collections.abc import MutableMapping
from importlib import import_module
from typing import Any, Literal, cast

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpResponse, parse_cookie

#: Where the ASGI scope of an MCP request keeps the Set-Cookie header values its answer must carry.
COOKIES_SCOPE_KEY = "visitor_ai.set_cookies"

#: What ``HttpResponse.set_cookie`` takes as ``samesite``.
SameSite = Literal["Lax", "Strict", "None", False] | None


async def visitor_session(ctx: Any, *, create: bool = False) -> SessionBase | None:
    """Return the caller's session, or None when the request has none (and create is off or not a browser)."""
    headers = ctx.headers or {}
    # Django's own reading of the Cookie header: a malformed cookie beside it loses nothing.
    session_key = parse_cookie(headers.get("cookie", "")).get(settings.SESSION_COOKIE_NAME)
    # The engine module's SessionStore: a SessionBase, as Django's SessionMiddleware expects of it.
    store: type[SessionBase] = import_module(settings.SESSION_ENGINE).SessionStore
    if session_key is not None:
        session = store(session_key)
        # Loading an unknown or expired key clears session_key: that is not the
        # visitor's session, and a tool must not act on it.
        await session.aitems()
        if session.session_key is not None:
            return session
    scope = _scope(ctx)
    if not create or not from_browser_page(ctx) or scope is None:
        return None
    session = store()
    await session.acreate()
    scope.setdefault(COOKIES_SCOPE_KEY, []).append(_session_cookie(session))
    return session


def from_browser_page(ctx: Any) -> bool:
    """Whether the call came from a page's fetch (it carries an Origin), not from a desktop client."""
    return (ctx.headers or {}).get("origin") is not None


def _scope(ctx: Any) -> MutableMapping[str, Any] | None:
    """Return the ASGI scope of the HTTP request behind a tool call, or None (another transport)."""
    scope = getattr(ctx.request_context.request, "scope", None)
    return scope if isinstance(scope, MutableMapping) and COOKIES_SCOPE_KEY in scope else None


def _session_cookie(session: SessionBase) -> str:
    """Return the Set-Cookie value for a new session, exactly as Django's SessionMiddleware writes it."""
    if session.session_key is None:
        raise ValueError("A session has no cookie until it is saved (acreate).")
    # Django's own cookie writer, so name, age, path, domain, Secure, HttpOnly and SameSite follow the settings.
    response = HttpResponse()
    response.set_cookie(
        settings.SESSION_COOKIE_NAME,
        session.session_key,
        max_age=session.get_expiry_age(),
        domain=settings.SESSION_COOKIE_DOMAIN,
        path=settings.SESSION_COOKIE_PATH,
        # set_cookie adds each flag when the value is true: SessionMiddleware's `or None` changes nothing.
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=settings.SESSION_COOKIE_HTTPONLY,
        # The plugin types the setting as the site's settings module assigns it (a str here);
        # set_cookie itself refuses a value other than Lax, Strict or None (in any case) or False.
        samesite=cast(SameSite, settings.SESSION_COOKIE_SAMESITE),
    )
    return response.cookies[settings.SESSION_COOKIE_NAME].OutputString()
