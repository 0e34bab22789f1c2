"""
The relay token: a random value per browser session, which the base template
hands to the stand-in scripts of this session's pages and the relay asks for in
a header. A page of another site cannot read it; a page of another session has
another one.
"""

import secrets

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest

#: The header that carries it.
HEADER = "X-Testwallet-Token"
#: Where the session keeps it.
SESSION_KEY = "testwallet_relay_token"


async def session_token(session: SessionBase) -> str:
    """Return this session's relay token, creating it on first use."""
    token: str | None = await session.aget(SESSION_KEY)
    if not token:
        token = secrets.token_urlsafe(32)
        await session.aset(SESSION_KEY, token)
    return token


async def carries_session_token(request: HttpRequest) -> bool:
    """Whether the request carries its session's relay token."""
    expected: str | None = await request.session.aget(SESSION_KEY)
    given = request.headers.get(HEADER, "")
    if not expected:
        return False
    return secrets.compare_digest(given.encode(), expected.encode())
