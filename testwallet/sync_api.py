"""
The sync faces of the test wallets, for suites on pytest-playwright (sync) and for plain scripts.

A face holds the async driver (:class:`~testwallet.aiwallet.AiWalletStub`,
:class:`~testwallet.extension.ByoaExtension`) and runs the test's waits on the event loop of the
sync Playwright it was installed into; the same names as the async fixtures, with plain calls
(``aiwallet.install(page)``, ``aiwallet.wait_until(...)``). How: docs/explanation/testwallet.md.
"""

import inspect
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from testwallet._driver import DEFAULT_TIMEOUT, ScriptError, check_target, refuse_test_kind
from testwallet.aiwallet import AiWalletStub, Chat, Reply
from testwallet.cassette.fixtures import MARKER
from testwallet.extension import ByoaExtension

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

    from testwallet.aiwallet import Account


__all__ = ["SyncAiWallet", "SyncByoaExtension", "aiwallet", "byoa_extension"]


class _Loop:
    """The event loop of the sync Playwright a wallet was installed into."""

    def __init__(self) -> None:
        self._owner: Page | BrowserContext | None = None

    def attach(self, target: "Page | BrowserContext") -> None:
        self._owner = self._owner or target

    def run[T](self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on Playwright's loop and return its result; the page's bindings run meanwhile."""
        if self._owner is None:
            coroutine.close()
            raise ScriptError("Nothing to wait on yet: install(page) first.")
        # Playwright has no public call that runs a coroutine on its sync API's loop; _sync is the
        # one each of its own sync methods goes through (playwright/_impl/_sync_base.py).
        result: T = self._owner._sync(coroutine)
        return result


class _Blocking:
    """A record of a driver whose coroutine methods (``held``, ``ended``) become plain calls."""

    def __init__(self, record: object, loop: _Loop) -> None:
        object.__setattr__(self, "_record", record)
        object.__setattr__(self, "_loop", loop)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._record, name)
        if inspect.iscoroutinefunction(value):
            return lambda *args, **kwargs: self._loop.run(value(*args, **kwargs))
        return value

    def __setattr__(self, name: str, value: object) -> None:
        setattr(self._record, name, value)

    def __repr__(self) -> str:
        return repr(self._record)


class _SyncWallet[D: (AiWalletStub, ByoaExtension)](_Blocking):
    """The sync face of one wallet driver; see the module's documentation."""

    __test__ = False  # a helper, not a test class

    _record: D
    _loop: _Loop

    def __init__(self, driver: D) -> None:
        super().__init__(driver, _Loop())

    @property
    def driver(self) -> D:
        """The async driver behind this face, whose state and logs the face shows."""
        return self._record

    def install(self, target: "Page | BrowserContext") -> None:
        """Give a sync Playwright Page or BrowserContext the stub before its scripts run (as the driver)."""
        check_target(target, sync=True)
        if any(target is done for done in self._record._installed):
            return
        for name, callback in self._record.bindings().items():
            target.expose_binding(name, callback)  # a coroutine callback: Playwright awaits it on its loop
        for path in self._record.init_scripts():
            target.add_init_script(path=path)
        self._record._installed.append(target)
        self._loop.attach(target)

    def wait_until(self, predicate: Callable[[Any], object], timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``predicate(wallet)`` is true, the page running; TimeoutError after ``timeout`` s."""
        self._loop.run(self._record.wait_until(predicate, timeout))

    def _wrap(self, record: object) -> Any:
        return _Blocking(record, self._loop) if isinstance(record, (Reply, Chat)) else record


class SyncAiWallet(_SyncWallet[AiWalletStub]):
    """AI Wallet's ``window.aiwallet`` for sync Playwright: :class:`AiWalletStub` with plain calls."""

    def __init__(self, accounts: "list[Account] | None" = None) -> None:
        super().__init__(AiWalletStub(accounts))

    def reply(self, *args: Any, **kwargs: Any) -> Any:
        """Queue the model's next answer and return it; ``held()`` on it waits for its hold point."""
        return self._wrap(self._record.reply(*args, **kwargs))

    @property
    def chats(self) -> list[Any]:
        """Each Chat that reached a model; ``ended()`` on one waits for its outcome."""
        return [self._wrap(chat) for chat in self._record.chats]

    def close(self) -> None:
        """End every pending wait of the pages: the test is over."""
        if self._loop._owner is not None:
            self._loop.run(self._record.aclose())


class SyncByoaExtension(_SyncWallet[ByoaExtension]):
    """The BYOA extension's ``window.byoa`` for sync Playwright: :class:`ByoaExtension` with plain calls."""

    def __init__(self) -> None:
        super().__init__(ByoaExtension())

    def close(self) -> None:
        """Nothing waits in the extension's driver: kept so both faces end the same way."""


@pytest.fixture
def aiwallet(request: pytest.FixtureRequest) -> Iterator[SyncAiWallet]:
    """
    A test double of AI Wallet for sync tests: ``aiwallet.install(page)`` before the page loads. On
    a test marked ``@pytest.mark.testwallet_cassette(path)`` it answers from that cassette.
    """
    refuse_test_kind(request, "aiwallet", sync=True)
    wallet = SyncAiWallet()
    if request.node.get_closest_marker(MARKER) is not None:
        wallet.answer_from_model(request.getfixturevalue("testwallet_cassette"))
    yield wallet
    wallet.close()
    wallet.check()


@pytest.fixture
def byoa_extension(request: pytest.FixtureRequest) -> Iterator[SyncByoaExtension]:
    """The visitor and models behind ``window.byoa`` (sync tests): ``byoa_extension.install(page)`` first."""
    refuse_test_kind(request, "byoa_extension", sync=True)
    extension = SyncByoaExtension()
    yield extension
    extension.close()
    extension.check()
