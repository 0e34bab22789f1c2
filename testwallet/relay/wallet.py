"""
The relay's answers in the wallet's own words: what the in-page stand-ins send (an AI Wallet
chat's params, or ``text.generate``'s input) becomes an OpenAI chat-completions request, asked
of the cassette, the scripted player or the developer's model server, and the answer comes back
as the wallet's events (JSON Lines) or the generated text.

The routes and their answers: docs/howto/stand-ins.md, "Who answers".
"""

import json
from collections.abc import AsyncIterator
from typing import Any

from testwallet._openai_chat import completion_events, generate_request, wallet_chat_request, wallet_events
from testwallet.cassette import NotRecorded
from testwallet.relay import recorded, scripted, upstream
from testwallet.relay.apps import installed_players
from testwallet.relay.conf import RelaySettings
from testwallet.relay.exceptions import RelayError

#: The media type of the wallet's events on the wire: one JSON object a line (JSON Lines).
EVENTS_TYPE = "application/x-ndjson"


def chat_params(body: dict[str, Any]) -> dict[str, Any]:
    """Return a wallet chat's params as sent; raise RelayError (400) when they are not a chat."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise RelayError("A chat request carries its messages", 400)
    if not isinstance(body.get("stream", True), bool):
        raise RelayError("A wallet chat's stream is true or false", 400)
    return body


async def chat(conf: RelaySettings, params: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    """
    Return the wallet's events answering a wallet chat (streamed unless ``params["stream"]`` is
    false), from whoever the settings name. Raises RelayError before any event: 409 for a chat
    the cassette has no recording of, the model server's refusal, or a 5xx when it is not there.
    """
    stream = params.get("stream", True) is not False
    if conf.cassette:
        try:
            return await recorded.wallet_chat(conf, params, stream)
        except NotRecorded as error:
            raise recorded.refused(error) from None
    body = wallet_chat_request(params, stream)
    if conf.scripted:
        completion = scripted.answer(body, installed_players())
        return (
            wallet_events(_each(scripted.stream_events(completion)))
            if stream
            else completion_events(completion)
        )
    if stream:
        return wallet_events(await upstream.chat_events(conf, body))
    return completion_events(await upstream.complete_chat(conf, body))


async def generate(conf: RelaySettings, body: dict[str, Any]) -> str:
    """
    Return the text answering ``text.generate`` (``{"input": {"messages"}, "params"}``, as
    window.byoa got them), not streamed; raise RelayError when it is not a text.generate or the
    answer has no text.
    """
    given = body.get("input")
    params = body.get("params", {})
    messages = given.get("messages") if isinstance(given, dict) else None
    if not isinstance(messages, list) or not messages:
        raise RelayError("A text.generate request carries input.messages", 400)
    if not isinstance(params, dict):
        raise RelayError("A text.generate request's params are an object", 400)
    asked = generate_request(None, messages, params, False)
    if conf.cassette:
        completion = await recorded.complete_chat(conf, asked)
    elif conf.scripted:
        completion = scripted.answer(asked, installed_players())
    else:
        completion = await upstream.complete_chat(conf, asked)
    try:
        text = completion["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        text = None
    if not isinstance(text, str):
        raise RelayError("The model server's answer has no text", 502)
    return text


async def lines(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    """Yield the wallet's events as JSON Lines: one object, then a newline, each sent as it comes."""
    async for event in events:
        yield json.dumps(event, ensure_ascii=False, sort_keys=True).encode() + b"\n"


async def _each(events: list[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    for event in events:
        yield event
