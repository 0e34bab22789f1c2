"""
How the test AI Wallet answers a page's request: each method yields the events of one request
(``status``, ``connect``, ``disconnect``, ``chat``) only when the page pulls the next one. A
chat's model answer is chats.py, the waits on the visitor's windows waits.py. A mixin of
``AiWalletStub`` (driver.py, through binding.py), which holds the state it reads.
"""

from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import TypedDict

from testwallet._driver import Consent
from testwallet.aiwallet.chats import ChatAnswers
from testwallet.aiwallet.events import error_event, result_event
from testwallet.aiwallet.records import (
    AUTO,
    DECLINED,
    LOCKED,
    LOCKED_DISCONNECT,
    NO_ACCOUNT,
    NO_MESSAGES,
    NOT_CONNECTED,
    NOT_SET_UP,
    UPDATED,
    Chat,
    Event,
    WalletLink,
)
from testwallet.aiwallet.waits import Answering, Interrupted
from testwallet.aiwallet.windows import ApprovalWindow


class Site(TypedDict):
    """An approved site in the wallet's vault."""

    account: str  # an account's name, or AUTO
    model: str | None  # None: the account's default model


class Answers(ChatAnswers):
    """
    The answering half of AiWalletStub: the events of each request, as the page
    pulls them. It reads the wallet's state declared below and calls the wallet's
    ``link``, ``_vault_changed`` and ``_notify``.
    """

    # What it reads and changes of the wallet (AiWalletStub sets each in __init__).
    updated: bool
    set_up: bool
    consent: Consent
    auto_order: list[str] | None
    default_account: str | None
    chats: list[Chat]
    approval_windows: list[ApprovalWindow]
    _sites: dict[str, Site]

    # What it calls of the wallet (AiWalletStub defines each).
    link: Callable[[str], WalletLink]
    _vault_changed: Callable[[], None]
    _notify: Callable[[str, WalletLink], None]

    async def _answer(self, answering: Answering) -> AsyncGenerator[Event, None]:
        """Yield the events that answer one request, producing each when the page asks for it."""
        if answering.cancelled:
            return
        if self.updated:
            yield error_event(*UPDATED)
            return
        method = answering.log.method
        handler: dict[str, Callable[[Answering], AsyncIterator[Event]]] = {
            "status": self._status,
            "connect": self._connect,
            "disconnect": self._disconnect,
            "chat": self._chat,
        }
        if method not in handler:
            yield error_event(404, f"AI Wallet has no method named {method}")
            return
        try:
            async for event in handler[method](answering):
                yield event
        except Interrupted:
            return

    async def _status(self, answering: Answering) -> AsyncIterator[Event]:
        yield result_event(self.link(answering.log.origin))

    async def _connect(self, answering: Answering) -> AsyncIterator[Event]:
        origin = answering.log.origin
        if not self.set_up:
            yield error_event(*NOT_SET_UP)
            return
        if not await self._unlocked(answering):
            yield error_event(*LOCKED)
            return
        if origin not in self._sites:
            window = ApprovalWindow(origin, self.default_account, answering.log, self)
            self.approval_windows.append(window)
            self._changed()
            if self.consent is not Consent.WAIT and (self.consent is not Consent.ALLOW or self.accounts):
                window._decide(self.consent)
            try:
                await self._gate(answering, lambda: window.decision is not None)
            except Interrupted:  # the page withdrew the request: the window goes with it
                window.decision = window.decision or Consent.CLOSE
                raise
            if window.decision is not Consent.ALLOW:
                yield error_event(*DECLINED)
                return
            assert window.account is not None  # Approve is disabled while the wallet holds no account
            self._sites[origin] = {"account": window.account, "model": None}  # the account it showed
            self._vault_changed()
        yield result_event(self.link(origin))

    async def _disconnect(self, answering: Answering) -> AsyncIterator[Event]:
        origin = answering.log.origin
        if self.locked:
            yield error_event(*LOCKED_DISCONNECT)
            return
        self._sites.pop(origin, None)
        self._notify(origin, {"connected": False})
        self._vault_changed()
        yield result_event({"connected": False})

    async def _chat(self, answering: Answering) -> AsyncIterator[Event]:
        params = answering.log.params if isinstance(answering.log.params, dict) else {}
        messages = params.get("messages")
        if not isinstance(messages, list) or not messages:
            yield error_event(*NO_MESSAGES)
            return
        if not self.set_up:
            yield error_event(*NOT_SET_UP)
            return
        if not await self._unlocked(answering):
            yield error_event(*LOCKED)
            return
        origin = answering.log.origin
        site = self._sites.get(origin)
        if site is None:
            yield error_event(*NOT_CONNECTED)
            return
        if site["account"] == AUTO:
            order = self.auto_order or [account.name for account in self.accounts]
            candidates: list[tuple[str, str | None]] = [
                (name, None) for name in order if self._find_account(name) is not None
            ]
        elif self._find_account(site["account"]) is not None:
            candidates = [(site["account"], site["model"])]
        else:
            candidates = []
        if not candidates:
            yield error_event(*NO_ACCOUNT)
            return

        chat = Chat(messages, params.get("tools"), params.get("options"), origin)
        answering.chat = chat
        self.chats.append(chat)
        try:
            async for event in self._run_model(answering, chat, candidates):
                yield event
        except (GeneratorExit, Interrupted):  # the page aborted it, or the test ended
            chat._end("cancelled")
            raise
        except Exception:
            chat._end("failed")
            raise
