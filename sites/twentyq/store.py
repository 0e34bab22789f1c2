"""Where a visitor's game lives: their Django session, under one key."""

import copy

from sites.twentyq.game import Game

SESSION_KEY = "twentyq"


async def load(session):
    """Return a copy of the session's Game, or None when there is none."""
    data = await session.aget(SESSION_KEY)
    return Game(copy.deepcopy(data)) if isinstance(data, dict) else None


async def save(session, game):
    """Put the game into the session (saved with the response)."""
    await session.aset(SESSION_KEY, game.data)


def fresh(session):
    """Return a new store of the same session, read again from its backend when used.

    A streamed move ends after the response's headers, and so after the session
    middleware has saved: it reads the game again (the visitor may have moved
    meanwhile), changes it and saves that store itself.
    """
    return session.__class__(session.session_key)
