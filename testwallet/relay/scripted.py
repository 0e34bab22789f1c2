"""
The scripted player: what the stand-ins answer when no model is named. It is not an AI and says
so; it answers in the shape of an OpenAI-compatible chat completion.

Each installed app's ``players.py`` may define ``answer(chat: Chat) -> Completion | None`` for its
own demo; the first app, in INSTALLED_APPS order, that answers wins, else the player says what it
was asked, labelled. More: docs/explanation/testwallet.md.
"""

import json
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MODEL = "scripted"
LABEL = "(scripted stand-in, not an AI)"

#: An OpenAI-style chat completion (a JSON object).
Completion = dict[str, Any]
#: A demo's player: its ``players.answer``.
Player = Callable[["Chat"], Completion | None]


@dataclass(frozen=True)
class Chat:
    """The page's chat request, read once for every player: nothing in it is trusted."""

    messages: list[dict[str, Any]]
    tools: frozenset[str]
    system: str

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> "Chat":
        """Return the chat of an OpenAI-style request body, leaving out what is not its shape."""
        messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
        given = body.get("tools")
        offered = given if isinstance(given, list) else []
        tools = frozenset(name for name in map(tool_name, offered) if isinstance(name, str))
        system = "\n".join(text_of(m) for m in messages if m.get("role") == "system")
        return cls(messages=messages, tools=tools, system=system)

    @property
    def last_user(self) -> str:
        """Return the text of the visitor's last message ('' when there is none)."""
        return next((text_of(m) for m in reversed(self.messages) if m.get("role") == "user"), "")


def answer(body: dict[str, Any], players: Sequence[Player]) -> Completion:
    """
    Return the chat completion the scripted player gives for an OpenAI-style request body: the
    first of ``players`` that answers (``testwallet.relay.apps.installed_players()``), else the echo.
    """
    chat = Chat.from_body(body)
    for player in players:
        if (completion_ := player(chat)) is not None:
            return completion_
    return completion(f"{LABEL} You said: {chat.last_user}")


def completion(content: str, tool_calls: Iterable[tuple[str, dict[str, Any]]] = ()) -> Completion:
    """Return a chat completion of the scripted model: its text, or the tool calls it makes."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    calls = [
        {
            "id": f"call_{secrets.token_hex(6)}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        for name, arguments in tool_calls
    ]
    if calls:
        message["tool_calls"] = calls
    return {
        "id": f"chatcmpl-{secrets.token_hex(8)}",
        "object": "chat.completion",
        "model": MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
    }


def stream_events(completion_: Completion) -> list[dict[str, Any]]:
    """Return the completion as the events of an OpenAI-style stream: a word at a time, then its tool calls."""
    message = completion_["choices"][0]["message"]
    base = {"id": completion_["id"], "object": "chat.completion.chunk", "model": MODEL}
    chunks: list[dict[str, Any]] = [
        {"role": "assistant", "content": word} for word in re.findall(r"\s*\S+\s*", message["content"] or "")
    ]
    if message.get("tool_calls"):
        chunks.append(
            {"tool_calls": [{"index": index, **call} for index, call in enumerate(message["tool_calls"])]}
        )
    events = [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]} for delta in chunks]
    finish = completion_["choices"][0]["finish_reason"]
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    return events


def tool_name(tool: Any) -> str | None:
    """Return the name of an offered tool or of a tool call ({function: {name}}), or None."""
    function = tool.get("function") if isinstance(tool, dict) else None
    return function.get("name") if isinstance(function, dict) else None


def text_of(message: dict[str, Any]) -> str:
    """Return a message's text: its string content, or its text parts joined."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""
