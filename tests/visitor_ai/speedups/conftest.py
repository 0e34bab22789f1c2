"""Fixtures of the ASGI application's tests: the thread hops a request makes."""

import pytest
from asgiref.sync import SyncToAsync


@pytest.fixture
def hops(monkeypatch):
    """Record the class of each sync_to_async hop's target (its bound method's owner, else its name)."""
    seen = []
    original = SyncToAsync.__call__

    async def recorded(self, *args, **kwargs):
        owner = getattr(self.func, "__self__", None)
        seen.append(type(owner).__name__ if owner is not None else self.func.__qualname__)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", recorded)
    return seen


# The BYOA speed-ups' tests use the BYOA tests' manifests (tests/byoa/conftest.py).
from tests.byoa.conftest import byoa_settings  # noqa: E402, F401
