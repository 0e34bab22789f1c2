"""
What the test-wallet drivers share, so ``aiwallet`` and ``byoa_extension`` speak one vocabulary.

Each driver has ``install(target)``, ``wait_until(predicate, timeout)``, ``check()`` and a module
``script_path()``; its fixture is declared with :data:`wallet_fixture`; a script the page could not
have met raises :class:`ScriptError`; the visitor's answer to its consent window is ``wallet.consent``,
a :class:`Consent`. Each driver is async, on Playwright's async API; its sync face
(:mod:`testwallet.sync_api`) runs the same driver for sync tests and scripts.
"""

import asyncio
import enum
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

import pytest
import pytest_asyncio

__all__ = [
    "DEFAULT_TIMEOUT",
    "Consent",
    "ScriptError",
    "check_target",
    "frame_origin",
    "origin_of",
    "panel_path",
    "pulse",
    "refuse_test_kind",
    "stub_path",
    "wait_until",
    "wallet_fixture",
]

#: How long a wait of a driver lasts by default, in seconds.
DEFAULT_TIMEOUT = 5.0

#: The decorator of every wallet fixture: async, on the session's loop, where the page's bindings run.
wallet_fixture = pytest_asyncio.fixture(loop_scope="session")


class Consent(enum.StrEnum):
    """What the visitor does in a wallet's consent window (AI Wallet's approval window, or BYOA's)."""

    ALLOW = "allow"  # AI Wallet: Approve; BYOA: Allow
    DECLINE = "decline"  # Decline: AI Wallet answers 403 "The connection was declined", BYOA null
    CLOSE = "close"  # closes the window without choosing: the page gets what a decline gets
    # leaves it open: AI Wallet waits for the test (approval_window()); BYOA's page gets null after 120 s
    WAIT = "wait"

    @classmethod
    def _missing_(cls, value: object) -> "Consent | None":
        # The words on each wallet's own window are accepted too.
        aliases = {"approve": cls.ALLOW, "no-answer": cls.WAIT}
        return aliases.get(value) if isinstance(value, str) else None


class HasURL(Protocol):
    """A Playwright frame or page of either API, as far as an origin is concerned."""

    @property
    def url(self) -> str: ...


class ScriptError(AssertionError):
    """Raised when the test's script of a wallet asks for something the page could not have met."""


def stub_path(name: str) -> Path:
    """Return the path of the in-page stub ``name`` (``frontend/testwallet/<name>``).

    ``testwallet/stubs`` links to ``frontend/testwallet`` in the repository and
    holds copies in an installed wheel, so this works in both.
    """
    return Path(__file__).parent / "stubs" / name


def panel_path() -> Path:
    """Return the path of the test wallet's panel, ``frontend/testwallet/panel.js``.

    The stand-ins ask a person there when no test drives them (never a native dialog); a page
    loads it before them.
    """
    return stub_path("panel.js")


def pulse(owner: object) -> None:
    """Wake the waits on ``owner`` (anything with a ``_pulse`` or ``pulse`` event)."""
    name = "_pulse" if hasattr(owner, "_pulse") else "pulse"
    getattr(owner, name).set()
    setattr(owner, name, asyncio.Event())


async def wait_until(
    ready: Callable[[], object], event: Callable[[], asyncio.Event], timeout: float, what: str
) -> None:
    """Wait until ``ready()`` is true, waking on each pulse of ``event()``.

    TimeoutError naming ``what`` after ``timeout`` s.
    """
    try:
        async with asyncio.timeout(timeout):
            while not ready():
                await event().wait()
    except TimeoutError:
        raise TimeoutError(f"{what} within {timeout} s.") from None


def origin_of(url: str) -> str:
    """Return the origin of ``url`` as ``location.origin`` spells it (default ports left out)."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    port = parts.port
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def frame_origin(frame: HasURL) -> str:
    """Return the origin of the document in ``frame``, as a wallet learns it from the browser.

    Never from a message: any script or frame of the page can call a binding and name any origin.
    A document without a network URL (about:blank, about:srcdoc, data:) has an opaque origin, "null".
    """
    url = frame.url
    if urlsplit(url).scheme not in ("http", "https"):
        return "null"
    return origin_of(url)


def check_target(target: object, *, sync: bool) -> None:
    """Raise TypeError unless ``target`` is a Page or BrowserContext of the Playwright API the face drives."""
    from playwright import async_api, sync_api  # a test dependency: imported when a wallet is installed

    wanted, other = (sync_api, async_api) if sync else (async_api, sync_api)
    if isinstance(target, (wanted.Page, wanted.BrowserContext)):
        return
    if isinstance(target, (other.Page, other.BrowserContext)):
        raise TypeError(
            f"install() got {'an async' if sync else 'a sync'} Playwright {type(target).__name__}; "
            f"this wallet drives {'sync' if sync else 'async'} Playwright. "
            + (
                "Use the async driver (testwallet.aiwallet / testwallet.extension) and await its calls."
                if sync
                else "Use its sync face, testwallet.sync_api (SyncAiWallet, SyncByoaExtension)."
            )
        )
    raise TypeError(f"install() takes a Playwright Page or BrowserContext; got {target!r}.")


def refuse_test_kind(request: pytest.FixtureRequest, fixture: str, *, sync: bool) -> None:
    """Fail a test not of the kind (sync or async) the session's ``fixture`` serves, saying which to use."""
    is_async = inspect.iscoroutinefunction(getattr(request, "function", None))
    if is_async == (not sync):
        return
    test = request.node.name
    if sync:
        message = (
            f"{fixture} is sync in this session (pytest-playwright): write {test} as a plain 'def' test. "
            f"For async tests, run the suite with pytest-playwright-asyncio instead: {fixture} is then async."
        )
    else:
        message = (
            f"{fixture} is async in this session (pytest-playwright-asyncio): write {test} as an 'async def' "
            f"test and await install() and the waits. For sync tests, run the suite with pytest-playwright "
            f"(and -p no:playwright-asyncio) instead: {fixture} is then sync (testwallet.sync_api)."
        )
    pytest.fail(message, pytrace=False)
