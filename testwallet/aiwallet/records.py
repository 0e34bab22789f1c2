"""What a test scripts and reads of the test AI Wallet: accounts, replies, requests, chats, the wallet's errors."""

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from testwallet._driver import DEFAULT_TIMEOUT, ScriptError, pulse, wait_until

#: The account name of a site on which the wallet picks the account for each answer.
AUTO = "Auto"


# -- The wallet's errors (wallet-provider.md, "Errors") -------------------------------------------

NO_MESSAGES = (400, "A chat request carries its messages")
NOT_CONNECTED = (401, "This site is not connected to AI Wallet")
DECLINED = (403, "The connection was declined")
NOT_SET_UP = (403, "AI Wallet is not set up yet. Open it from the browser toolbar.")
LOCKED = (403, "AI Wallet is locked. Unlock it to continue.")
LOCKED_DISCONNECT = (403, "The wallet is locked")
NO_ACCOUNT = (403, "AI Wallet has no AI account connected")
UPDATED = (410, "AI Wallet was updated. Reload this page to use it again.")
STOPPED = (499, "The answer was stopped from AI Wallet")
#: Not in the spec: the test's own script went wrong (see ScriptError).
SCRIPT_FAILED = 500


class ProviderError(Exception):
    """
    Raised by a model function when the provider refuses the call; the page gets
    ``<account> answered <status>: <detail>`` with ``status``.
    """

    def __init__(self, status, detail):
        super().__init__(f"answered {status}: {detail}")
        self.status = status
        self.detail = detail


class ProviderUnreachable(Exception):
    """Raised by a model function when the provider cannot be reached; the page gets 502 and the reason."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


# -- What the test scripts ------------------------------------------------------------------------


@dataclass
class Account:
    """An AI account in the wallet: its display name and its default model."""

    name: str
    model: str


@dataclass
class ToolCall:
    """A tool the model asks for; ``arguments`` is a dict or the JSON text of one."""

    name: str
    arguments: dict | str = field(default_factory=dict)
    id: str | None = None


@dataclass(eq=False)
class Reply:
    """
    One answer of the model: its text (a string, or the list of deltas it streams in), the tools
    it calls, and how it ends. ``model`` is the model as the provider names it (default: the one
    the wallet asked for); ``usage`` is a dict, ``True`` to count words, or ``None`` for none.
    """

    text: str | list[str] = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    model: str | None = None
    usage: dict | bool | None = True
    hold_after: int | None = None
    # A provider failure after the text has streamed, e.g. ProviderError(500, "Overloaded"):
    # the page has the deltas, then the chat rejects (no other account is tried).
    fail_after: "ProviderError | ProviderUnreachable | None" = None

    def __post_init__(self):
        self._pulse = asyncio.Event()
        self._resumed = asyncio.Event()
        self._held = False

    @property
    def deltas(self):
        """The pieces of text the answer streams."""
        if isinstance(self.text, str):
            return [self.text] if self.text else []
        return [delta for delta in self.text if delta]

    async def held(self, timeout=DEFAULT_TIMEOUT):
        """Wait until the page has received the answer up to ``hold_after`` and asks for more."""
        if self.hold_after is None:
            raise ScriptError("This reply never holds: queue it with hold_after=<number of deltas>.")
        await wait_until(lambda: self._held, lambda: self._pulse, timeout, "The answer did not reach its hold point")

    def resume(self):
        """Let a held answer stream on."""
        self._resumed.set()


@dataclass(eq=False)
class Request:
    """A request the page sent: what it asked and, once answered, the last event it got."""

    method: str
    params: Any
    origin: str
    answer: dict | None = None


@dataclass(eq=False)
class Chat:
    """A ``chat`` that reached a model: the conversation, and which account answered it and how."""

    messages: list
    tools: list | None
    options: dict | None
    origin: str
    account: str | None = None
    model: str | None = None
    outcome: Literal["answered", "failed", "stopped", "cancelled"] | None = None

    def __post_init__(self):
        self._pulse = asyncio.Event()

    async def ended(self, timeout=DEFAULT_TIMEOUT):
        """Wait until the chat has ended; return its outcome."""
        await wait_until(lambda: self.outcome is not None, lambda: self._pulse, timeout, "The chat did not end")
        return self.outcome

    def _end(self, outcome):
        if self.outcome is None:
            self.outcome = outcome
            pulse(self)
