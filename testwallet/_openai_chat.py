"""
The OpenAI chat-completions shape of what the test wallet asks a model, and of what it reads back.

The one converter between the wallets' requests (an AI Wallet ``chat``, a Prompt API prompt,
``text.generate``) and chat-completions request bodies, and from a model's answer, streamed or
whole, back to the wallet's events. docs/explanation/testwallet.md has the details.
"""

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

#: The wallet's finish reasons for OpenAI's (wallet-provider.md, "Shared types").
FINISH = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "toolCalls",
    "function_call": "toolCalls",
    "content_filter": "contentFilter",
}


def as_javascript_json(value: Any) -> str:
    """Return the JSON text JavaScript's ``JSON.stringify`` writes for a value (no spaces, no escapes)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _given(value: Any, default: Any) -> Any:
    """Return ``value ?? default``, as JavaScript reads it: only a missing value takes the default."""
    return default if value is None else value


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _text(value: object) -> str:
    """Return a value as JavaScript's ``String(value ?? '')`` writes a string or a number."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)


def wallet_message(message: Any) -> dict[str, Any]:
    """Return the OpenAI message of one AI Wallet chat message."""
    message = message if isinstance(message, dict) else {}
    given = message.get("content")
    content: Any
    if isinstance(given, list):
        content = [
            {"type": "image_url", "image_url": {"url": _text(part.get("url"))}}
            if isinstance(part, dict) and part.get("type") == "image"
            else {"type": "text", "text": _text(part.get("text") if isinstance(part, dict) else None)}
            for part in given
        ]
    else:
        content = _text(given)
    role = _text(message.get("role"))
    if role == "tool":
        return {"role": "tool", "tool_call_id": _text(message.get("toolCallId")), "content": content}
    calls = message.get("toolCalls")
    if role == "assistant" and isinstance(calls, list) and calls:
        return {
            "role": "assistant",
            "content": content,
            "tool_calls": [
                {
                    "id": _text(call.get("id")),
                    "type": "function",
                    "function": {
                        "name": _text(call.get("name")),
                        "arguments": as_javascript_json(_given(call.get("arguments"), {})),
                    },
                }
                for call in calls
                if isinstance(call, dict)
            ],
        }
    return {"role": role, "content": content}


def wallet_chat_request(params: dict[str, Any], stream: bool) -> dict[str, Any]:
    """Return the OpenAI request body for an AI Wallet ``chat``'s params (without a model name)."""
    body: dict[str, Any] = {"messages": [wallet_message(m) for m in params.get("messages") or []]}
    body["stream"] = stream
    tools = params.get("tools")
    if isinstance(tools, list) and tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": _text(tool.get("name")),
                    "description": _text(tool.get("description")),
                    "parameters": _given(tool.get("inputSchema"), {"type": "object"}),
                },
            }
            for tool in tools
            if isinstance(tool, dict)
        ]
    options = params.get("options") if isinstance(params.get("options"), dict) else {}
    assert isinstance(options, dict)
    if isinstance(options.get("maxTokens"), int) and not isinstance(options["maxTokens"], bool):
        body["max_tokens"] = options["maxTokens"]
    if _number(options.get("temperature")):
        body["temperature"] = options["temperature"]
    if _number(options.get("topP")):
        body["top_p"] = options["topP"]
    if isinstance(options.get("stop"), list):
        body["stop"] = options["stop"]
    choice = options.get("toolChoice")
    if isinstance(choice, str):
        body["tool_choice"] = choice
    elif isinstance(choice, dict) and isinstance(choice.get("name"), str):
        body["tool_choice"] = {"type": "function", "function": {"name": choice["name"]}}
    asked_format = options.get("responseFormat")
    if isinstance(asked_format, dict) and asked_format.get("type") == "json":
        body["response_format"] = _response_format(asked_format)
    return body


def _response_format(asked: dict[str, Any]) -> dict[str, Any]:
    """Return OpenAI's response_format for the wallet's ``{type: 'json', schema?, name?, strict?}``."""
    if not isinstance(asked.get("schema"), dict):
        return {"type": "json_object"}
    schema: dict[str, Any] = {"name": _text(asked.get("name")) or "response", "schema": asked["schema"]}
    if isinstance(asked.get("strict"), bool):
        schema["strict"] = asked["strict"]
    return {"type": "json_schema", "json_schema": schema}


def prompt_request(prompt: dict[str, Any], stream: bool) -> dict[str, Any]:
    """Return the OpenAI request body for a Prompt API prompt, as languagemodel.js sends it."""
    given = [*(prompt.get("initialPrompts") or []), *(prompt.get("input") or [])]
    messages = [
        {"role": _text(m.get("role")), "content": _text(m.get("content"))}
        for m in given
        if isinstance(m, dict)
    ]
    body: dict[str, Any] = {"messages": messages, "stream": stream}
    schema = prompt.get("responseConstraint")
    if isinstance(schema, dict):
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "response", "schema": schema},
        }
    return body


def generate_request(
    model: str | None, messages: list[Any], params: dict[str, Any], stream: bool
) -> dict[str, Any]:
    """
    Return the OpenAI request body for ``text.generate``: the headless wallet's (checked messages,
    its model) and the relay's (the messages as window.byoa got them, no model: the relay names it).
    """
    body: dict[str, Any] = {"messages": list(messages), "stream": stream}
    if model is not None:
        body["model"] = model
    choices = params.get("choices")
    if isinstance(choices, list) and choices and all(isinstance(c, str) for c in choices):
        instruction = "Answer with exactly one of: " + ", ".join(choices)
        body["messages"].insert(0, {"role": "system", "content": instruction})
    if isinstance(params.get("maxTokens"), int) and not isinstance(params["maxTokens"], bool):
        body["max_tokens"] = params["maxTokens"]
    return body


def delta_text(event: dict[str, Any]) -> str:
    """Return the text a stream event adds ('' for one that adds none)."""
    try:
        content = event["choices"][0]["delta"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        return ""
    return content if isinstance(content, str) else ""


@dataclass
class StreamedAnswer:
    """A streamed chat answer, read event by event (``add``) for the wallet's events (wallet_events)."""

    deltas: list[str] = field(default_factory=list)
    finish: str = "stop"
    model: str | None = None
    #: The usage in the wallet's words (inputTokens, outputTokens, cachedInputTokens), when the server gave it.
    usage: dict[str, int] | None = None
    _calls: dict[int, dict[str, str]] = field(default_factory=dict)

    def add(self, event: dict[str, Any]) -> str:
        """Read one ``data:`` object of the stream; return the text it adds ('' for none)."""
        if isinstance(event.get("model"), str) and event["model"]:
            self.model = event["model"]
        usage = event.get("usage")
        if (
            isinstance(usage, dict)
            and _number(usage.get("prompt_tokens"))
            and _number(usage.get("completion_tokens"))
        ):
            details = usage.get("prompt_tokens_details")
            cached: Any = details.get("cached_tokens") if isinstance(details, dict) else 0
            self.usage = {
                "inputTokens": usage["prompt_tokens"],
                "outputTokens": usage["completion_tokens"],
                "cachedInputTokens": cached if _number(cached) else 0,
            }
        choices = event.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        if not isinstance(choice, dict):
            return ""
        text = delta_text(event)
        if text:
            self.deltas.append(text)
        delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
        assert isinstance(delta, dict)
        for part in delta.get("tool_calls") or []:
            if not isinstance(part, dict):
                continue
            at = part["index"] if isinstance(part.get("index"), int) else len(self._calls)
            call = self._calls.setdefault(at, {"id": "", "name": "", "arguments": ""})
            function = part.get("function") if isinstance(part.get("function"), dict) else {}
            assert isinstance(function, dict)
            if part.get("id"):
                call["id"] = _text(part["id"])
            call["name"] += _text(function.get("name"))
            call["arguments"] += _text(function.get("arguments"))
        if choice.get("finish_reason"):
            self.finish = FINISH.get(str(choice["finish_reason"]), "stop")
        return text

    def tool_calls(self) -> list[dict[str, Any]]:
        """
        Return the tool calls as the wallet gives them (``id``, ``name``, ``arguments`` as an object);
        raise ValueError when a call's arguments are not a JSON object.
        """
        calls = []
        for position, (_, call) in enumerate(sorted(self._calls.items())):
            try:
                arguments = json.loads(call["arguments"]) if call["arguments"].strip() else {}
            except ValueError:
                arguments = None
            if not isinstance(arguments, dict):
                raise ValueError("The model asked for a tool with arguments that are not a JSON object")
            calls.append(
                {"id": call["id"] or f"call_{position}", "name": call["name"], "arguments": arguments}
            )
        return calls

    def result(self) -> dict[str, Any]:
        """
        Return the wallet's ChatResponse of the answer read so far: ``message`` (with ``toolCalls``
        when the model asked for tools), ``finishReason``, and ``model`` and ``usage`` when the
        server named them (the wallet names its account's model otherwise). Raises ValueError as
        ``tool_calls`` does.
        """
        calls = self.tool_calls()
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self.deltas)}
        if calls:
            message["toolCalls"] = calls
        result: dict[str, Any] = {"message": message, "finishReason": "toolCalls" if calls else self.finish}
        if self.model:
            result["model"] = self.model
        if self.usage:
            result["usage"] = self.usage
        return result


def _error_event(error: Any) -> dict[str, Any]:
    status = error.get("status") if isinstance(error, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return {
        "kind": "error",
        "status": status if isinstance(status, int) and not isinstance(status, bool) else 502,
        "message": str(message or "The model server failed"),
    }


async def wallet_events(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """
    Yield a streamed answer's events (``data:`` objects) as the wallet's: each text piece as it
    comes, then the result; or an error event, last, when the model server broke off (an
    ``{"error": ...}`` event) or asked for a tool with arguments that are not a JSON object.
    """
    answer = StreamedAnswer()
    async for event in events:
        if "error" in event:
            yield _error_event(event["error"])
            return
        text = answer.add(event)
        if text:
            yield {"kind": "text", "delta": text}
    try:
        result = answer.result()
    except ValueError as error:
        yield {"kind": "error", "status": 502, "message": str(error)}
        return
    yield {"kind": "result", "result": result}


async def completion_events(completion: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    """Yield a chat completion (not streamed) as the wallet's events: its text in one piece, then the result."""
    choices = completion.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = choice.get("message")
    if not isinstance(message, dict):
        yield {"kind": "error", "status": 502, "message": "The model server's answer has no message"}
        return
    calls = message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else []
    assert isinstance(calls, list)
    # One event in the stream's shape, so that StreamedAnswer reads both kinds of answer alike.
    event = {
        "model": completion.get("model"),
        "usage": completion.get("usage"),
        "choices": [
            {
                "delta": {
                    "content": message.get("content"),
                    "tool_calls": [
                        {**call, "index": index} for index, call in enumerate(calls) if isinstance(call, dict)
                    ],
                },
                "finish_reason": choice.get("finish_reason"),
            }
        ],
    }

    async def one() -> AsyncIterator[dict[str, Any]]:
        yield event

    async for wallet_event in wallet_events(one()):
        yield wallet_event
