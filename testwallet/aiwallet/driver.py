"""
The wallet behind the in-page provider: its state (accounts, approved sites, the lock), what
the test does to it (the model's answers, the visitor's windows and controls), installing it in
a page, and the ``aiwallet`` fixture. The binding the page calls is binding.py; how it answers
each request is answers.py.
"""

import asyncio
import itertools
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from testwallet._driver import (
    DEFAULT_TIMEOUT,
    Consent,
    ScriptError,
    check_target,
    origin_of,
    panel_path,
    pulse,
    refuse_test_kind,
    stub_path,
    wait_until,
    wallet_fixture,
)
from testwallet.aiwallet.answers import Site
from testwallet.aiwallet.binding import BINDING, PageBinding
from testwallet.aiwallet.chats import ModelFunction, Queued
from testwallet.aiwallet.choice import Choice
from testwallet.aiwallet.recorded import RecordedModel
from testwallet.aiwallet.records import (
    AUTO,
    Account,
    Chat,
    ProviderError,
    ProviderUnreachable,
    Reply,
    Request,
    ToolCall,
    Unlocking,
    WalletLink,
)
from testwallet.aiwallet.windows import ApprovalWindow, UnlockWindow
from testwallet.cassette import Cassette, CassetteError
from testwallet.cassette.fixtures import MARKER

if TYPE_CHECKING:
    import pytest
    from playwright.async_api import BrowserContext, Page

    from testwallet.relay.conf import RelaySettings

#: Seconds a test has to read a chat's NotRecorded (its 409 on the page, ``check()``) before the
#: wallet closes the test's pages with it: a test waiting for that answer then fails at once.
NOT_RECORDED_GRACE = 3.0


def script_path() -> Path:
    """Return the path of the in-page provider script, ``frontend/testwallet/aiwallet.js``."""
    return stub_path("aiwallet.js")


# -- The wallet -----------------------------------------------------------------------------------


class AiWalletStub(PageBinding):
    """The wallet behind the test wallet's ``window.aiwallet``: see the module's documentation."""

    __test__ = False  # a helper, not a test class

    #: What the visitor may do in each window.
    APPROVAL_CHOICES = tuple(Consent)
    UNLOCK_CHOICES: tuple[Unlocking, ...] = ("unlock", "close", "wait")
    consent = Choice(
        APPROVAL_CHOICES, "What the visitor does in the next approval windows (a Consent).", Consent
    )
    unlocking = Choice(UNLOCK_CHOICES, "What the visitor does in the next unlock window.")

    @property
    def approval(self) -> Consent:
        """The same as ``consent``: the approval window is AI Wallet's consent window."""
        return self.consent

    @approval.setter
    def approval(self, choice: Consent | str) -> None:
        self.consent = choice

    def __init__(self, accounts: Iterable[Account] | None = None) -> None:
        """Hold ``accounts`` (default: 'Test wallet' on 'echo-1'), unlocked, with no site approved."""
        given = [Account(a.name, a.model) for a in accounts or ()]
        self.accounts = given or [Account("Test wallet", "echo-1")]
        self.default_account = self.accounts[0].name if self.accounts else None
        self.auto_order: list[str] | None = None
        self.set_up = True
        self.locked = False
        self.updated = False
        self.consent = Consent.ALLOW
        self.unlocking = "unlock"
        self.model: ModelFunction | None = None
        self.requests: list[Request] = []
        self.chats: list[Chat] = []
        self.notices: list[tuple[str, WalletLink]] = []
        self.approval_windows: list[ApprovalWindow] = []
        self.unlock_windows: list[UnlockWindow] = []
        self._sites: dict[str, Site] = {}  # origin -> its account (a name or AUTO) and model
        self._queue: deque[Queued] = deque()
        self._pages = {}
        self._answering = {}
        self._cancelled_early = set()
        self._unlock_window: UnlockWindow | None = None
        self._tool_call_ids = itertools.count(1)
        self._script_errors: list[Exception] = []
        self._pulse = asyncio.Event()
        self._installed: list[object] = []
        self._unseen: set[asyncio.Task[None]] = set()  # pages to close with a NotRecorded not looked at

    # -- Installing -------------------------------------------------------------------------------

    async def install(self, target: "Page | BrowserContext") -> None:
        """
        Define ``window.aiwallet`` in ``target`` (a Playwright Page or BrowserContext) before its scripts
        run, in every document it loads from now on (a page already loaded gets it at its next load).
        """
        check_target(target, sync=False)
        if any(target is done for done in self._installed):
            return
        for name, callback in self.bindings().items():
            await target.expose_binding(name, callback)
        for path in self.init_scripts():
            await target.add_init_script(path=path)
        self._installed.append(target)

    def bindings(self) -> dict[str, Callable[..., Awaitable[object]]]:
        """Return the Playwright bindings the page calls, by name (what ``install`` exposes)."""
        return {BINDING: self._on_call}

    def init_scripts(self) -> list[Path]:
        """Return the paths of the scripts ``install`` adds to every document, in order (the panel first)."""
        return [panel_path(), script_path()]

    async def aclose(self) -> None:
        """End every pending wait of the pages: the test is over."""
        for closing in self._unseen:
            closing.cancel()
        for answering in list(self._answering.values()):
            answering.cancelled = True
            pulse(answering)
            if not answering.pulling:
                await answering.events.aclose()
        self._answering.clear()
        for page in self._pages.values():
            page.notices.put_nowait(None)
        self._pages.clear()
        await asyncio.sleep(0)

    def check(self) -> None:
        """Raise the first error the test's script caused (a ScriptError or the model's), and forget them."""
        errors, self._script_errors = self._script_errors, []
        if errors:
            raise errors[0]

    def _not_recorded(self, error: CassetteError) -> None:
        """Called when a chat had no recording: unless the test reads the error (``check``) within
        NOT_RECORDED_GRACE seconds, close its pages with it, so that a test waiting for an answer that
        will never come fails then, naming NotRecorded, rather than at its own timeout."""
        closing = asyncio.get_running_loop().create_task(self._close_pages_unless_seen(error))
        self._unseen.add(closing)
        closing.add_done_callback(self._unseen.discard)

    async def _close_pages_unless_seen(self, error: CassetteError) -> None:
        await asyncio.sleep(NOT_RECORDED_GRACE)  # the test's time to look at the page's 409
        if not any(error is pending for pending in self._script_errors):
            return  # the test read it (check) and went on
        reason = f"{type(error).__name__}: {error}"
        for target in self._installed:
            for page in getattr(target, "pages", None) or [target]:  # a BrowserContext, or a Page
                await page.close(reason=reason)

    # -- The visitor's windows --------------------------------------------------------------------

    async def approval_window(self, timeout: float = DEFAULT_TIMEOUT) -> ApprovalWindow:
        """Wait for an approval window that is open, and return it (the oldest first)."""
        await wait_until(self._open_approval, lambda: self._pulse, timeout, "No approval window opened")
        window = self._open_approval()
        assert window is not None  # what the wait waited for
        return window

    async def unlock_window(self, timeout: float = DEFAULT_TIMEOUT) -> UnlockWindow:
        """Wait until the unlock window is open, and return it."""
        await wait_until(lambda: self._unlock_window, lambda: self._pulse, timeout, "No unlock window opened")
        assert self._unlock_window is not None  # what the wait waited for
        return self._unlock_window

    async def wait_until(self, predicate: Callable[[Self], object], timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``predicate(wallet)`` is true, such as ``lambda w: len(w.requests) == 2``."""
        what = f"{predicate.__qualname__} did not become true"
        await wait_until(lambda: predicate(self), lambda: self._pulse, timeout, what)

    def _open_approval(self) -> ApprovalWindow | None:
        return next((w for w in self.approval_windows if w.decision is None), None)

    # -- The wallet's state -----------------------------------------------------------------------

    def lock(self) -> None:
        """Lock the wallet. Pages get no notice ("The wallet sends nothing when it locks")."""
        self.locked = True

    def unlock(self) -> None:
        """Unlock the wallet: requests waiting in the unlock window go on, and approved sites get a notice."""
        self.locked = False
        if self._unlock_window is not None:
            self._unlock_window.decision = "unlock"
            self._unlock_window = None
        self._vault_changed()

    def mark_updated(self) -> None:
        """The extension was updated: from now on every request is answered 410 at once."""
        self.updated = True

    def add_account(self, name: str, model: str) -> None:
        """Connect an AI account; the first one becomes the default."""
        if self._find_account(name) is not None or name == AUTO:
            raise ScriptError(f"An account named {name!r} exists already.")
        self.accounts.append(Account(name, model))
        self.default_account = self.default_account or name
        self._vault_changed()
        for window in self.approval_windows:
            if window.decision is None and window.account is None:  # its Approve button comes alive
                window.account = self.default_account
                if self.consent is Consent.ALLOW:
                    window.approve()

    def remove_account(self, name: str) -> None:
        """Remove an account. Sites that answered with it keep it, and their chats get 403."""
        self.accounts.remove(self._account(name))
        if self.default_account == name:
            self.default_account = self.accounts[0].name if self.accounts else None
        self._vault_changed()

    def set_default_account(self, name: str) -> None:
        """Make ``name`` the account that answers the sites approved from now on."""
        self.default_account = self._account(name).name
        self._vault_changed()

    def approve_site(self, url: str, account: str | None = None, model: str | None = None) -> None:
        """Approve the origin of ``url`` as the visitor would, with ``account`` (default: the default one)."""
        account = account or self.default_account
        if account is None:
            raise ScriptError("The wallet holds no account: add_account() first.")
        self._check_account(account)
        self._sites[origin_of(url)] = {"account": account, "model": model}
        self._vault_changed()

    def switch(self, account: str | None = None, model: str | None = None, origin: str | None = None) -> None:
        """Pick another account (or AUTO) and/or model for a site; its pages get a link notice."""
        if account is not None:
            self._check_account(account)
        for site_origin in self._approved(origin):
            site = self._sites[site_origin]
            if account is not None:
                site["account"], site["model"] = account, None
            if model is not None:
                site["model"] = model
        self._vault_changed()

    def switch_off(self, origin: str | None = None) -> None:
        """Remove a site, as the visitor does in the wallet; its pages get ``{connected: false}``."""
        for site_origin in self._approved(origin):
            del self._sites[site_origin]
            self._notify(site_origin, {"connected": False})
        self._vault_changed()

    def is_approved(self, url: str) -> bool:
        """Return whether the origin of ``url`` is approved."""
        return origin_of(url) in self._sites

    def link(self, origin: str) -> WalletLink:
        """Return the WalletLink of ``origin``, as ``status`` answers it."""
        site = self._sites.get(origin)
        if not self.set_up or self.locked or site is None:
            return {"connected": False}
        if site["account"] == AUTO:
            return {"connected": True, "providerName": AUTO}
        account = self._find_account(site["account"])
        model = site["model"] or (account.model if account else None)
        link: WalletLink = {"connected": True, "providerName": site["account"]}
        if model:
            link["model"] = model
        return link

    # -- The model --------------------------------------------------------------------------------

    def reply(
        self,
        text: str | list[str] = "",
        *,
        tool_calls: Iterable[ToolCall] = (),
        finish_reason: str | None = None,
        model: str | None = None,
        usage: dict[str, Any] | bool | None = True,
        hold_after: int | None = None,
        fail_after: ProviderError | ProviderUnreachable | None = None,
    ) -> Reply:
        """Queue the model's next answer and return it (a Reply you may wait on when it holds)."""
        answer = Reply(text, list(tool_calls), finish_reason, model, usage, hold_after, fail_after)
        self._queue.append(answer)
        return answer

    def answer_from_model(self, cassette: Cassette, server: "RelaySettings | None" = None) -> None:
        """
        Answer every chat the queue does not from a model through ``cassette``: replayed, or (record
        modes) asked of ``server`` (default: TESTWALLET_MODEL_URL) and recorded. A chat with no
        recording in replay gets 409 and the cassette's message, and fails the test.
        """
        self.model = RecordedModel(cassette, server)

    def fail(self, status: int, detail: str) -> None:
        """Queue a provider refusal: the page gets ``<account> answered <status>: <detail>``."""
        self._queue.append(ProviderError(status, detail))

    def fail_network(self, reason: str) -> None:
        """Queue a network failure between the wallet and the provider: the page gets 502 and ``reason``."""
        self._queue.append(ProviderUnreachable(reason))

    def press_stop(self) -> list[Chat]:
        """Press Stop in the wallet's side panel: every running chat ends with 499. Return those chats."""
        stopped = []
        for answering in self._answering.values():
            if answering.chat is not None and answering.chat.outcome is None:
                answering.stop_pressed = True
                stopped.append(answering.chat)
                pulse(answering)
        return stopped

    def _changed(self) -> None:
        """Wake every wait: something the test or a page waits on may have changed."""
        pulse(self)

    def _window_closed(self, window: ApprovalWindow | UnlockWindow) -> None:
        """Called when the visitor decides in a window or closes it: drop the unlock window; wake waits."""
        if window is self._unlock_window:
            self._unlock_window = None
        self._changed()

    # -- Accounts and sites -----------------------------------------------------------------------

    def _find_account(self, name: str) -> Account | None:
        return next((account for account in self.accounts if account.name == name), None)

    def _account(self, name: str) -> Account:
        account = self._find_account(name)
        if account is None:
            names = ", ".join(a.name for a in self.accounts) or "none"
            raise ScriptError(f"The wallet has no account named {name!r}; its accounts: {names}.")
        return account

    def _check_account(self, name: str) -> None:
        if name != AUTO:
            self._account(name)

    def _approved(self, origin: str | None) -> list[str]:
        if origin is not None:
            origin = origin_of(origin)
            if origin not in self._sites:
                raise ScriptError(f"{origin} is not an approved site; approve_site() or connect first.")
            return [origin]
        if not self._sites:
            raise ScriptError("No site is approved yet: approve_site() or connect first.")
        return list(self._sites)


# -- The fixture ----------------------------------------------------------------------------------


@wallet_fixture
async def aiwallet(request: "pytest.FixtureRequest") -> AsyncIterator[AiWalletStub]:
    """
    A test double of AI Wallet: ``await aiwallet.install(page)`` before the page loads. On a test
    marked ``@pytest.mark.testwallet_cassette(path)`` it answers from that cassette (answer_from_model).
    """
    refuse_test_kind(request, "aiwallet", sync=False)
    wallet = AiWalletStub()
    if request.node.get_closest_marker(MARKER) is not None:
        wallet.answer_from_model(request.getfixturevalue("testwallet_cassette"))
    yield wallet
    await wallet.aclose()
    wallet.check()
