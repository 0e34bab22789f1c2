"""
What the test-wallet drivers share, so ``aiwallet`` and ``byoa_extension`` speak one vocabulary.

Each driver has ``install(target)``, ``wait_until(predicate, timeout)``, ``check()`` and a module
``script_path()``; its fixture is declared with :data:`wallet_fixture`; a script the page could not
have met raises :class:`ScriptError`.
"""

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

import pytest_asyncio

__all__ = ["DEFAULT_TIMEOUT", "ScriptError", "frame_origin", "origin_of", "pulse", "stub_path", "wait_until", "wallet_fixture"]

#: How long a wait of a driver lasts by default, in seconds.
DEFAULT_TIMEOUT = 5.0

#: The decorator of every wallet fixture: async, on the session's loop, where the page's bindings run.
wallet_fixture = pytest_asyncio.fixture(loop_scope="session")


class ScriptError(AssertionError):
    """Raised when the test's script of a wallet asks for something the page could not have met."""


def stub_path(name):
    """Return the path of the in-page stub ``name`` (``frontend/testwallet/<name>``).

    ``testwallet/stubs`` links to ``frontend/testwallet`` in the repository and
    holds copies in an installed wheel, so this works in both.
    """
    return Path(__file__).parent / "stubs" / name


def pulse(owner):
    """Wake the waits on ``owner`` (anything with a ``_pulse`` or ``pulse`` event)."""
    name = "_pulse" if hasattr(owner, "_pulse") else "pulse"
    getattr(owner, name).set()
    setattr(owner, name, asyncio.Event())


async def wait_until(ready, event, timeout, what):
    """Wait until ``ready()`` is true, waking on each pulse of ``event()``; TimeoutError naming ``what`` after ``timeout`` s."""
    try:
        async with asyncio.timeout(timeout):
            while not ready():
                await event().wait()
    except TimeoutError:
        raise TimeoutError(f"{what} within {timeout} s.") from None


def origin_of(url):
    """Return the origin of ``url`` as ``location.origin`` spells it (default ports left out)."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    port = parts.port
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def frame_origin(frame):
    """Return the origin of the document in ``frame``, as a wallet learns it from the browser.

    Never from a message: any script or frame of the page can call a binding and name any origin.
    A document without a network URL (about:blank, about:srcdoc, data:) has an opaque origin, "null".
    """
    url = frame.url
    if urlsplit(url).scheme not in ("http", "https"):
        return "null"
    return origin_of(url)
