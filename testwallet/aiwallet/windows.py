"""The visitor's windows of the test AI Wallet: approving a site, unlocking the wallet."""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from testwallet._driver import Consent, ScriptError
from testwallet.aiwallet.records import Request

if TYPE_CHECKING:
    from testwallet.aiwallet.driver import AiWalletStub


@dataclass(eq=False)
class ApprovalWindow:
    """The window in which the visitor approves a site: it shows the host and the account that will answer."""

    origin: str
    account: str | None
    request: Request
    _wallet: "AiWalletStub" = field(repr=False)
    decision: Consent | None = None

    @property
    def host(self):
        return urlsplit(self.origin).netloc

    def approve(self):
        """Press Approve: the site is saved with the default account."""
        if not self._wallet.accounts:
            raise ScriptError("Approve is disabled while the wallet holds no account: add_account() first.")
        self._decide(Consent.ALLOW)

    def decline(self):
        """Press Decline: the page gets 'The connection was declined'."""
        self._decide(Consent.DECLINE)

    def close(self):
        """Close the window: the page gets 'The connection was declined'."""
        self._decide(Consent.CLOSE)

    def _decide(self, decision):
        if self.decision is not None:
            raise ScriptError(f"This approval window was already closed ({self.decision}).")
        self.decision = decision
        self._wallet._changed()


@dataclass(eq=False)
class UnlockWindow:
    """The window in which the visitor unlocks the wallet; every request that met the lock waits on it."""

    _wallet: "AiWalletStub" = field(repr=False)
    decision: Literal["unlock", "close"] | None = None
    #: The requests waiting on this window.
    requests: list[Request] = field(default_factory=list)

    def unlock(self):
        """Unlock the wallet: the waiting requests go on."""
        self._wallet.unlock()

    def close(self):
        """Close the window without unlocking: the waiting requests get 'AI Wallet is locked…'."""
        if self.decision is None:
            self.decision = "close"
            self._wallet._unlock_window = None
            self._wallet._changed()
