"""What a test scripts and reads of the test AI Wallet: accounts, replies, requests, chats, its errors."""

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

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


# -- What the page gets (wallet-provider.md, "Streaming events" and "Shared types") --------------------


class WalletLink(TypedDict):
    """What ``status`` and ``connect`` answer, and a link notice carries."""

    connected: bool
    providerName: NotRequired[str]
    model: NotRequired[str]


class ResultEvent(TypedDict):
    kind: Literal["result"]
    result: Any  # a WalletLink, or a chat's {message, finishReason, model, usage?}


class ErrorEvent(TypedDict):
    kind: Literal["error"]
    status: int
    message: str


class StartEvent(TypedDict):
    kind: Literal["start"]
    providerName: str | None
    model: str | None


class TextEvent(TypedDict):
    kind: Literal["text"]
    delta: str


#: One event of a request's answer, as the page pulls it.
Event = ResultEvent | ErrorEvent | StartEvent | TextEvent
#: What the visitor does in the next unlock window (``wait``: leaves it open for the test).
Unlocking = Literal["unlock", "close", "wait"]
#: How a chat that reached a model ended.
Outcome = Literal["answered", "failed", "stopped", "cancelled"]


class ProviderError(Exception):
    """
    Raised by a model function when the provider refuses the call; the page gets
    ``<account> answered <status>: <detail>`` with ``status``.
    """

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"answered {status}: {detail}")
        self.status = status
        self.detail = detail


class ProviderUnreachable(Exception):
    """Raised by a model function when the provider cannot be reached; the page gets 502 and the reason."""

    def __init__(self, reason: str) -> None:
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
    arguments: dict[str, Any] | str = field(default_factory=dict)
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
    usage: dict[str, Any] | bool | None = True
    hold_after: int | None = None
    # A provider failure after the text has streamed, e.g. ProviderError(500, "Overloaded"):
    # the page has the deltas, then the chat rejects (no other account is tried).
    fail_after: "ProviderError | ProviderUnreachable | None" = None
    # The answer as a model streams it, in the wallet's events (text pieces, then a result or an
    # error): passed to the page as they come, at the model's (or the recording's) pace. The
    # text, tool calls and ending above are then unused.
    events: "AsyncIterator[dict[str, Any]] | None" = None

    def __post_init__(self) -> None:
        self._pulse = asyncio.Event()
        self._resumed = asyncio.Event()
        self._held = False

    @property
    def deltas(self) -> list[str]:
        """The pieces of text the answer streams."""
        if isinstance(self.text, str):
            return [self.text] if self.text else []
        return [delta for delta in self.text if delta]

    async def held(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until the page has received the answer up to ``hold_after`` and asks for more."""
        if self.hold_after is None:
            raise ScriptError("This reply never holds: queue it with hold_after=<number of deltas>.")
        what = "The answer did not reach its hold point"
        await wait_until(lambda: self._held, lambda: self._pulse, timeout, what)

    def resume(self) -> None:
        """Let a held answer stream on."""
        self._resumed.set()


@dataclass(eq=False)
class Request:
    """A request the page sent: what it asked and, once answered, the last event it got."""

    method: str
    params: Any  # as the page sent them: nothing in them is trusted
    origin: str
    answer: Event | None = None


@dataclass(eq=False)
class Chat:
    """A ``chat`` that reached a model: the conversation, and which account answered it and how."""

    messages: list[Any]
    tools: list[Any] | None
    options: dict[str, Any] | None
    origin: str
    account: str | None = None
    model: str | None = None
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        self._pulse = asyncio.Event()

    async def ended(self, timeout: float = DEFAULT_TIMEOUT) -> Outcome:
        """Wait until the chat has ended; return its outcome."""
        await wait_until(
            lambda: self.outcome is not None, lambda: self._pulse, timeout, "The chat did not end"
        )
        assert self.outcome is not None  # what the wait waited for
        return self.outcome

    def _end(self, outcome: Outcome) -> None:
        if self.outcome is None:
            self.outcome = outcome
            pulse(self)
