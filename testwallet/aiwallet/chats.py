"""
How the test AI Wallet answers a chat once it may: the account (with Auto, each in turn while
nothing has streamed), the model's answer (queued, the test's model function, a cassette or the
echo model), streamed as events the page pulls one by one, with held replies, Stop and the
reply's tool calls checked against the chat's tools. A mixin under ``Answers``.
"""

import inspect
import json
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from testwallet._driver import ScriptError, pulse
from testwallet.aiwallet.echo import echo_reply, word_usage
from testwallet.aiwallet.events import error_event, failure_event, result_event
from testwallet.aiwallet.records import (
    STOPPED,
    Account,
    Chat,
    ErrorEvent,
    Event,
    ProviderError,
    ProviderUnreachable,
    Reply,
    ToolCall,
)
from testwallet.aiwallet.waits import Answering, Interrupted, Waits
from testwallet.cassette import CassetteError
from testwallet.relay.recorded import NOT_RECORDED_STATUS

#: What a model function answers: a Reply, its text, or the provider's failure to raise.
ModelAnswer = Reply | str | Exception
#: The test's model: a function of the Chat, answering a ModelAnswer (or an awaitable of one).
ModelFunction = Callable[[Chat], ModelAnswer | Awaitable[ModelAnswer]]
#: A queued answer of the model (AiWalletStub.reply, fail, fail_network).
Queued = Reply | ProviderError | ProviderUnreachable


class ChatAnswers(Waits):
    """
    The model's side of a chat. It reads the wallet's state declared below and calls the
    wallet's ``_find_account`` and ``_not_recorded``.
    """

    # What it reads and changes of the wallet (AiWalletStub sets each in __init__).
    model: ModelFunction | None
    _queue: deque[Queued]
    _tool_call_ids: Iterator[int]
    _script_errors: list[Exception]

    # What it calls of the wallet (AiWalletStub defines each).
    _find_account: Callable[[str], Account | None]
    _not_recorded: Callable[[CassetteError], None]

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
            raise Interrupted
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
