"""The visitor's windows of the test AI Wallet: approving a site, unlocking the wallet."""

from dataclasses import dataclass, field
from typing import Literal, Protocol
from urllib.parse import urlsplit

from testwallet._driver import Consent, ScriptError
from testwallet.aiwallet.records import Account, Request


class Wallet(Protocol):
    """What a window asks of the wallet that opened it (driver.AiWalletStub): no import of the driver."""

    accounts: list[Account]

    def unlock(self) -> None: ...

    def _window_closed(self, window: "ApprovalWindow | UnlockWindow") -> None: ...


@dataclass(eq=False)
class ApprovalWindow:
    """The window in which the visitor approves a site: it shows the host and the account that will answer."""

    origin: str
    account: str | None
    request: Request
    _wallet: Wallet = field(repr=False)
    decision: Consent | None = None

    @property
    def host(self) -> str:
        return urlsplit(self.origin).netloc

    def approve(self) -> None:
        """Press Approve: the site is saved with the default account."""
        if not self._wallet.accounts:
            raise ScriptError("Approve is disabled while the wallet holds no account: add_account() first.")
        self._decide(Consent.ALLOW)

    def decline(self) -> None:
        """Press Decline: the page gets 'The connection was declined'."""
        self._decide(Consent.DECLINE)

    def close(self) -> None:
        """Close the window: the page gets 'The connection was declined'."""
        self._decide(Consent.CLOSE)

    def _decide(self, decision: Consent) -> None:
        if self.decision is not None:
            raise ScriptError(f"This approval window was already closed ({self.decision}).")
        self.decision = decision
        self._wallet._window_closed(self)


@dataclass(eq=False)
class UnlockWindow:
    """The window in which the visitor unlocks the wallet; every request that met the lock waits on it."""

    _wallet: Wallet = field(repr=False)
    decision: Literal["unlock", "close"] | None = None
    #: The requests waiting on this window.
    requests: list[Request] = field(default_factory=list)

    def unlock(self) -> None:
        """Unlock the wallet: the waiting requests go on."""
        self._wallet.unlock()

    def close(self) -> None:
        """Close the window without unlocking: the waiting requests get 'AI Wallet is locked…'."""
        if self.decision is None:
            self.decision = "close"
            self._wallet._window_closed(self)
