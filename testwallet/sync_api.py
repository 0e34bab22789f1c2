"""
The sync faces of the test wallets, for suites on pytest-playwright (sync) and for plain scripts.

One implementation, two faces: a face holds the async driver (:class:`~testwallet.aiwallet.AiWalletStub`,
:class:`~testwallet.extension.ByoaExtension`) and runs it on the event loop of the sync Playwright it
was installed into. Playwright's sync API is an asyncio loop in a greenlet: the page's binding calls
already run the driver's coroutines there, so the face only needs to run the test's waits (an
approval window, ``wait_until``, a held reply) on that same loop until they are done. Everything
else (scripting the model, the visitor's choices, the logs) is the driver's own attributes, read and
set through the face. The same names as the async fixtures, with plain calls::

    def test_my_page_answers(page, daphne_server, aiwallet):
        aiwallet.install(page)
        aiwallet.reply(["A calm ", "pick."])
        page.goto(daphne_server.url + "/bookshop/")
        ...
        aiwallet.wait_until(lambda wallet: len(wallet.chats) == 1)
"""

import inspect

import pytest

from testwallet._driver import DEFAULT_TIMEOUT, ScriptError, check_target, refuse_test_kind
from testwallet.aiwallet import AiWalletStub, Chat, Reply
from testwallet.extension import ByoaExtension

__all__ = ["SyncAiWallet", "SyncByoaExtension", "aiwallet", "byoa_extension"]


class _Loop:
    """The event loop of the sync Playwright a wallet was installed into."""

    def __init__(self):
        self._owner = None

    def attach(self, target):
        self._owner = self._owner or target

    def run(self, coroutine):
        """Run ``coroutine`` on Playwright's loop and return its result; the page's bindings run meanwhile."""
        if self._owner is None:
            coroutine.close()
            raise ScriptError("Nothing to wait on yet: install(page) first.")
        # Playwright has no public call that runs a coroutine on its sync API's loop; _sync is the
        # one each of its own sync methods goes through (playwright/_impl/_sync_base.py).
        return self._owner._sync(coroutine)


class _Blocking:
    """A record of a driver whose coroutine methods (``held``, ``ended``) become plain calls."""

    def __init__(self, record, loop):
        object.__setattr__(self, "_record", record)
        object.__setattr__(self, "_loop", loop)

    def __getattr__(self, name):
        value = getattr(self._record, name)
        if inspect.iscoroutinefunction(value):
            return lambda *args, **kwargs: self._loop.run(value(*args, **kwargs))
        return value

    def __setattr__(self, name, value):
        setattr(self._record, name, value)

    def __repr__(self):
        return repr(self._record)


class _SyncWallet(_Blocking):
    """The sync face of one wallet driver; see the module's documentation."""

    __test__ = False  # a helper, not a test class

    def __init__(self, driver):
        super().__init__(driver, _Loop())

    @property
    def driver(self):
        """The async driver behind this face, whose state and logs the face shows."""
        return self._record

    def install(self, target):
        """Give a sync Playwright Page or BrowserContext the stub, before its scripts run (as the driver's install)."""
        check_target(target, sync=True)
        if any(target is done for done in self._record._installed):
            return
        for name, callback in self._record.bindings().items():
            target.expose_binding(name, callback)  # a coroutine callback: Playwright awaits it on its loop
        for path in self._record.init_scripts():
            target.add_init_script(path=path)
        self._record._installed.append(target)
        self._loop.attach(target)

    def wait_until(self, predicate, timeout=DEFAULT_TIMEOUT):
        """Wait until ``predicate(wallet)`` is true, with the page running; TimeoutError naming it after ``timeout`` s."""
        self._loop.run(self._record.wait_until(predicate, timeout))

    def _wrap(self, record):
        return _Blocking(record, self._loop) if isinstance(record, (Reply, Chat)) else record


class SyncAiWallet(_SyncWallet):
    """AI Wallet's ``window.aiwallet`` for sync Playwright: :class:`AiWalletStub` with plain calls."""

    def __init__(self, accounts=None):
        super().__init__(AiWalletStub(accounts))

    def reply(self, *args, **kwargs):
        """Queue the model's next answer and return it; ``held()`` on it waits for its hold point."""
        return self._wrap(self._record.reply(*args, **kwargs))

    @property
    def chats(self):
        """Each Chat that reached a model; ``ended()`` on one waits for its outcome."""
        return [self._wrap(chat) for chat in self._record.chats]

    def close(self):
        """End every pending wait of the pages: the test is over."""
        if self._loop._owner is not None:
            self._loop.run(self._record.aclose())


class SyncByoaExtension(_SyncWallet):
    """The BYOA extension's ``window.byoa`` for sync Playwright: :class:`ByoaExtension` with plain calls."""

    def __init__(self):
        super().__init__(ByoaExtension())

    def close(self):
        """Nothing waits in the extension's driver: kept so both faces end the same way."""


@pytest.fixture
def aiwallet(request):
    """A test double of AI Wallet for sync tests: ``aiwallet.install(page)`` before the page loads."""
    refuse_test_kind(request, "aiwallet", sync=True)
    wallet = SyncAiWallet()
    yield wallet
    wallet.close()
    wallet.check()


@pytest.fixture
def byoa_extension(request):
    """The visitor and models behind ``window.byoa`` for sync tests: ``byoa_extension.install(page)`` first."""
    refuse_test_kind(request, "byoa_extension", sync=True)
    extension = SyncByoaExtension()
    yield extension
    extension.close()
    extension.check()
