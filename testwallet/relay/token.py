"""
The relay token: a random value per browser session, which the base template
hands to the stand-in scripts of this session's pages and the relay asks for in
a header. A page of another site cannot read it; a page of another session has
another one.
"""

import secrets

#: The header that carries it.
HEADER = "X-Testwallet-Token"
#: Where the session keeps it.
SESSION_KEY = "testwallet_relay_token"


async def session_token(session):
    """Return this session's relay token, creating it on first use."""
    token = await session.aget(SESSION_KEY)
    if not token:
        token = secrets.token_urlsafe(32)
        await session.aset(SESSION_KEY, token)
    return token


async def carries_session_token(request):
    """Whether the request carries its session's relay token."""
    expected = await request.session.aget(SESSION_KEY)
    given = request.headers.get(HEADER, "")
    return bool(expected) and secrets.compare_digest(given.encode(), expected.encode())
