"""The calling visitor's session, read from the MCP request's Cookie header as Django reads it."""

from types import SimpleNamespace

import pytest
from django.contrib.sessions.backends.db import SessionStore

from mcp_server.visitor_sessions import visitor_session

pytestmark = pytest.mark.django_db(transaction=True)


def context(cookie: str) -> SimpleNamespace:
    """A tool call's context as the SDK gives it: the request's headers, no ASGI scope needed here."""
    return SimpleNamespace(headers={"cookie": cookie}, request_context=SimpleNamespace(request=None))


@pytest.mark.parametrize("before", ['bad"cookie=1', "]x[=1", 'x="unterminated'])
async def test_a_malformed_cookie_beside_the_session_cookie_loses_no_session(settings, before):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    stored = SessionStore()
    await stored.aset("basket", {"dune": 1})
    await stored.asave()
    session = await visitor_session(context(f"{before}; sessionid={stored.session_key}"))
    assert session is not None and await session.aget("basket") == {"dune": 1}


async def test_an_unknown_session_key_is_no_session(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    assert await visitor_session(context("sessionid=forged-key-123")) is None
