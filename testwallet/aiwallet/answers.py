"""
How the test AI Wallet answers a page's request: each method yields the events
of one request (``status``, ``connect``, ``disconnect``, ``chat``) only when the
page pulls the next one, and waits on the visitor's windows and on Stop. A mixin
of ``AiWalletStub`` (driver.py, through binding.py), which holds the state it reads;
the events are wallet-provider.md's.
"""

import asyncio
import inspect
import json
import re
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from testwallet._driver import Consent, ScriptError, pulse
from testwallet.aiwallet.records import (
    AUTO,
    DECLINED,
    LOCKED,
    LOCKED_DISCONNECT,
    NO_ACCOUNT,
    NO_MESSAGES,
    NOT_CONNECTED,
    NOT_SET_UP,
    STOPPED,
    UPDATED,
    Chat,
    ErrorEvent,
    Event,
    ProviderError,
    ProviderUnreachable,
    Reply,
    Request,
    ResultEvent,
    ToolCall,
    Unlocking,
    WalletLink,
)
from testwallet.aiwallet.windows import ApprovalWindow, UnlockWindow
from testwallet.cassette import CassetteError
from testwallet.relay.recorded import NOT_RECORDED_STATUS

if TYPE_CHECKING:
    from testwallet.aiwallet.records import Account

#: What a model function answers: a Reply, its text, or the provider's failure to raise.
ModelAnswer = Reply | str | Exception
#: The test's model: a function of the Chat, answering a ModelAnswer (or an awaitable of one).
ModelFunction = Callable[[Chat], ModelAnswer | Awaitable[ModelAnswer]]
#: A queued answer of the model (AiWalletStub.reply, fail, fail_network).
Queued = Reply | ProviderError | ProviderUnreachable


class Site(TypedDict):
    """An approved site in the wallet's vault."""

    account: str  # an account's name, or AUTO
    model: str | None  # None: the account's default model


class _Interrupted(Exception):
    """Raised inside an answer when the page aborted it or the test ended."""


@dataclass(eq=False)
class Answering:
    """A request being answered: its log entry, its events as the page pulls them, and its interruptions."""

    log: Request
    events: AsyncGenerator[Event, None] = field(init=False)  # set once, right after the request opens
    chat: Chat | None = None
    cancelled: bool = False
    stop_pressed: bool = False
    pulling: bool = False
    pulse: asyncio.Event = field(default_factory=asyncio.Event)


class Answers:
    """
    The answering half of AiWalletStub: the events of each request, as the page
    pulls them. It reads the wallet's state declared below and calls the wallet's
    ``link``, ``_changed``, ``_vault_changed``, ``_notify`` and ``_find_account``.
    """

    # What it reads and changes of the wallet (AiWalletStub sets each in __init__).
    updated: bool
    set_up: bool
    locked: bool
    consent: Consent
    unlocking: Unlocking
    model: ModelFunction | None
    accounts: "list[Account]"
    auto_order: list[str] | None
    default_account: str | None
    chats: list[Chat]
    approval_windows: list[ApprovalWindow]
    unlock_windows: list[UnlockWindow]
    _sites: dict[str, Site]
    _queue: deque[Queued]
    _unlock_window: UnlockWindow | None
    _tool_call_ids: Iterator[int]
    _pulse: asyncio.Event
    _script_errors: list[Exception]

    # What it calls of the wallet (AiWalletStub defines each).
    def link(self, origin: str) -> WalletLink:
        raise NotImplementedError

    def _changed(self) -> None:
        raise NotImplementedError

    def _vault_changed(self) -> None:
        raise NotImplementedError

    def _notify(self, origin: str, link: WalletLink) -> None:
        raise NotImplementedError

    def _find_account(self, name: str) -> "Account | None":
        raise NotImplementedError

    def unlock(self) -> None:
        raise NotImplementedError

    def _window_closed(self, window: ApprovalWindow | UnlockWindow) -> None:
        raise NotImplementedError

    def _not_recorded(self, error: CassetteError) -> None:
        raise NotImplementedError

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
        except _Interrupted:
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
            except _Interrupted:  # the page withdrew the request: the window goes with it
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
        except (GeneratorExit, _Interrupted):  # the page aborted it, or the test ended
            chat._end("cancelled")
            raise
        except Exception:
            chat._end("failed")
            raise

    async def _run_model(
        self, answering: Answering, chat: Chat, candidates: list[tuple[str, str | None]]
    ) -> AsyncIterator[Event]:
        # "With Auto, the wallet tries its accounts in turn … moves to the next account only while
        # nothing has streamed … an account that failed before it gets no start."
        failure: ErrorEvent | None = None
        for name, model in candidates:
            account = self._find_account(name)
            chat.account, chat.model = name, model or (account.model if account else None)
            if self._stop_or_cancel(answering):
                break
            try:
                answer = await self._model_answer(chat)
            except (ProviderError, ProviderUnreachable) as error:
                failure = failure_event(name, error)
                continue
            except CassetteError as error:  # a chat the cassette has no recording of: no other account helps
                self._script_errors.append(error)
                self._not_recorded(error)
                chat._end("failed")
                yield error_event(NOT_RECORDED_STATUS, error.message)
                return
            async for event in self._stream(answering, chat, answer):
                yield event
            return
        if self._stop_or_cancel(answering):
            chat._end("stopped")
            yield error_event(*STOPPED)
            return
        chat._end("failed")
        assert failure is not None  # every candidate failed, and there was at least one
        yield failure

    def _stop_or_cancel(self, answering: Answering) -> bool:
        if answering.cancelled:
            raise _Interrupted
        return answering.stop_pressed

    async def _model_answer(self, chat: Chat) -> Reply:
        """Return the Reply of the queued answer, model function or echo model; raise its failure."""
        answer: object
        if self._queue:
            answer = self._queue.popleft()
        elif self.model is not None:
            answer = self.model(chat)
            if inspect.isawaitable(answer):
                answer = await answer
        else:
            answer = echo_reply(chat.messages)
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, str):
            answer = Reply(answer)
        if not isinstance(answer, Reply):
            raise ScriptError(f"The model answered {answer!r}; expected a Reply or a string.")
        return answer

    async def _stream(self, answering: Answering, chat: Chat, answer: Reply) -> AsyncIterator[Event]:
        if answer.events is not None:
            async for event in self._passed_on(answering, chat, answer.events):
                yield event
            return
        tool_calls = self._tool_calls(chat, answer.tool_calls)
        deltas = answer.deltas
        if answer.hold_after is not None and not 0 <= answer.hold_after <= len(deltas):
            raise ScriptError(
                f"hold_after={answer.hold_after}, but the reply streams {len(deltas)} delta(s)."
            )
        for index in range(len(deltas) + 1):
            if answer.hold_after == index:
                answer._held = True
                pulse(answer)
                await self._gate(answering, lambda: answer._resumed.is_set(), answer._resumed)
            if self._stop_or_cancel(answering):
                chat._end("stopped")
                yield error_event(*STOPPED)
                return
            if index == 0:  # "right before the first text, or right before the result"
                yield {"kind": "start", "providerName": chat.account, "model": chat.model}
                if self._stop_or_cancel(answering):
                    chat._end("stopped")
                    yield error_event(*STOPPED)
                    return
            if index < len(deltas):
                yield {"kind": "text", "delta": deltas[index]}
        if answer.fail_after is not None:
            # Text has streamed, so the wallet stays with this account ("moves to the next
            # account only while nothing has streamed") and the chat fails.
            chat._end("failed")
            yield failure_event(chat.account, answer.fail_after)
            return
        content = "".join(deltas)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            message["toolCalls"] = tool_calls
        result: dict[str, Any] = {
            "message": message,
            "finishReason": answer.finish_reason or ("toolCalls" if tool_calls else "stop"),
            "model": answer.model or chat.model,
        }
        usage = word_usage(chat.messages, deltas) if answer.usage is True else answer.usage
        if usage:
            result["usage"] = usage
        chat._end("answered")
        yield result_event(result)

    async def _passed_on(
        self, answering: Answering, chat: Chat, events: AsyncIterator[dict[str, Any]]
    ) -> AsyncIterator[Event]:
        """Pass a model's events to the page as they come; the tool calls checked as a reply's are."""
        started = False
        async for event in events:
            if not started and event["kind"] != "error":  # "right before the first text, or the result"
                started = True
                yield {"kind": "start", "providerName": chat.account, "model": chat.model}
            if self._stop_or_cancel(answering):
                chat._end("stopped")
                yield error_event(*STOPPED)
                return
            if event["kind"] == "text":
                yield {"kind": "text", "delta": event["delta"]}
                continue
            if event["kind"] == "error":
                chat._end("failed")
                yield error_event(event["status"], event["message"])
                return
            result = dict(event["result"])
            message = dict(result["message"])
            calls = [ToolCall(c["name"], c["arguments"], c.get("id")) for c in message.get("toolCalls", [])]
            if calls:
                message["toolCalls"] = self._tool_calls(chat, calls)
            result["message"] = message
            result["model"] = result.get("model") or chat.model
            chat._end("answered")
            yield result_event(result)
            return
        chat._end("failed")
        yield error_event(502, "The model's answer ended without a result")

    def _tool_calls(self, chat: Chat, tool_calls: list[ToolCall]) -> list[dict[str, Any]]:
        """Return an answer's tool calls with their ids and parsed arguments; check the chat offered them."""
        if not tool_calls:
            return []
        offered: list[Any] = [tool.get("name") for tool in chat.tools or [] if isinstance(tool, dict)]
        calls: list[dict[str, Any]] = []
        for call in tool_calls:
            if not offered:
                raise ScriptError(f"The reply calls {call.name!r}, but this chat offered no tools.")
            if call.name not in offered:
                raise ScriptError(f"The reply calls {call.name!r}; this chat offered {', '.join(offered)}.")
            arguments = json.loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
            if not isinstance(arguments, dict):
                raise ScriptError(f"The arguments of {call.name!r} are {arguments!r}; expected an object.")
            call.id = call.id or f"call_{next(self._tool_call_ids)}"
            calls.append({"id": call.id, "name": call.name, "arguments": arguments})
        return calls

    # -- Waiting ----------------------------------------------------------------------------------

    async def _unlocked(self, answering: Answering) -> bool:
        """Return whether the wallet is unlocked, after the visitor's unlock window when it is locked."""
        if not self.locked:
            return True
        window = self._unlock_window
        if window is None:
            # "Requests from several pages at the same moment share one unlock window."
            window = self._unlock_window = UnlockWindow(self)
            self.unlock_windows.append(window)
            self._changed()
            if self.unlocking == "unlock":
                window.unlock()
            elif self.unlocking == "close":
                window.close()
        window.requests.append(answering.log)
        self._changed()
        await self._gate(answering, lambda: window.decision is not None)
        return window.decision == "unlock"

    async def _gate(self, answering: Answering, ready: Callable[[], bool], *events: asyncio.Event) -> None:
        """Wait until ``ready()``; raise _Interrupted when the page aborts the request meanwhile."""
        while not ready():
            if answering.cancelled:
                raise _Interrupted
            if answering.stop_pressed and answering.chat is not None:
                return
            waits = [asyncio.ensure_future(e.wait()) for e in (self._pulse, answering.pulse, *events)]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()
        if answering.cancelled:
            raise _Interrupted


# -- Events and the echo model -------------------------------------------------------------------


def echo_reply(messages: list[Any]) -> Reply:
    """Return the echo model's answer: "Echo: " and the last user message, a word per delta."""
    last = next((m for m in reversed(messages) if isinstance(m, dict) and m.get("role") == "user"), {})
    content = f"Echo: {_text_of(last.get('content'))}"
    return Reply(re.findall(r"\s*\S+\s*", content) or [content])


def word_usage(messages: list[Any], deltas: list[str]) -> dict[str, int]:
    """Count words, as the in-page echo model does: a deterministic stand-in for token counts."""
    words = sum(len(_text_of(m.get("content")).split()) for m in messages if isinstance(m, dict))
    return {"inputTokens": words, "outputTokens": len(deltas), "cachedInputTokens": 0}


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part for part in content if isinstance(part, dict) and part.get("type") == "text"]
        texts = (part.get("text") for part in parts)
        return "".join(text for text in texts if isinstance(text, str))
    return ""


def result_event(result: Any) -> ResultEvent:
    return {"kind": "result", "result": result}


def error_event(status: int, message: str) -> ErrorEvent:
    return {"kind": "error", "status": status, "message": message}


def failure_event(account: str | None, error: ProviderError | ProviderUnreachable) -> ErrorEvent:
    """Return the error event of a provider failure, worded as the wallet's error table says."""
    if isinstance(error, ProviderUnreachable):
        return error_event(502, error.reason)
    return error_event(error.status, f"{account} answered {error.status}: {error.detail}")
