"""
The relay's recorded answers: with ``TESTWALLET['CASSETTE']`` named, every chat
and clip goes through one ``testwallet.cassette.Cassette`` per process, which
answers from the file or asks the model server (``upstream``) and records it,
as ``TESTWALLET['RECORD']`` says. A request with no recording in replay is an
error the page shows, never a scripted answer or a model's.
"""

import functools
import logging
from collections.abc import AsyncIterator
from typing import Any

from testwallet._openai_chat import StreamedAnswer, completion_events, wallet_chat_request, wallet_events
from testwallet.cassette import Cassette, CassetteError, Mode, NotRecorded
from testwallet.relay import upstream
from testwallet.relay.conf import RelaySettings
from testwallet.relay.exceptions import RelayError

logger = logging.getLogger("testwallet.cassette")

#: What the page gets for a request with no recording: the request conflicts with the cassette.
NOT_RECORDED_STATUS = 409


@functools.cache
def _cassette(path: str, record: str, pacing: bool, key: str) -> Cassette:
    # One per process and setting, so that `all` starts the file anew once, not on every request.
    return Cassette(path, Mode.named(record), pacing=pacing, secrets=[key])


def cassette(conf: RelaySettings) -> Cassette:
    """Return the process's cassette of these settings; raise RelayError when its file cannot be used."""
    try:
        return _cassette(conf.cassette, conf.record, conf.pacing, conf.model_key)
    except CassetteError as error:
        raise RelayError(error.message, 500) from None


def _model_server(conf: RelaySettings, what: str) -> None:
    """Raise RelayError when a request is to be recorded and no server is named to answer it."""
    chat = what == "chat"
    url = conf.model_url if chat else conf.transcribe_url
    variable = "TESTWALLET_MODEL_URL" if chat else "TESTWALLET_TRANSCRIBE_URL"
    if not url:
        raise RelayError(
            f"TESTWALLET_RECORD={conf.record} records what is not in {conf.cassette}, "
            f"but no server is named to answer it ({variable})",
            502,
        )


def refused(error: NotRecorded) -> RelayError:
    """Return the RelayError the page gets for a request with no recording (409), logging it."""
    logger.warning("testwallet cassette: %s", error.message)  # the test report shows the server's output
    return RelayError(error.message, NOT_RECORDED_STATUS)


async def complete_chat(conf: RelaySettings, body: dict[str, Any]) -> dict[str, Any]:
    """Return the chat completion for the page's request, from the cassette or recorded into it."""

    async def ask() -> dict[str, Any]:
        _model_server(conf, "chat")
        return await upstream.complete_chat(conf, body)

    try:
        return await cassette(conf).chat(upstream.chat_body(conf, body), ask)
    except NotRecorded as error:
        raise refused(error) from None


async def chat_events(
    conf: RelaySettings, body: dict[str, Any], recording: Cassette | None = None
) -> AsyncIterator[dict[str, Any]]:
    """
    Return the events of a streamed chat from `recording` (default: the settings' cassette), or
    asked of the model server and recorded. Raises NotRecorded in replay when it has no recording,
    RelayError when the model server is not named or fails. The aiwallet driver's model
    (testwallet.aiwallet.recorded) asks here too.
    """

    async def ask() -> AsyncIterator[dict[str, Any]]:
        _model_server(conf, "chat")
        return await upstream.chat_events(conf, body)

    return await (recording or cassette(conf)).chat_stream(upstream.chat_body(conf, body), ask)


async def wallet_chat(
    conf: RelaySettings, params: dict[str, Any], stream: bool = True, recording: Cassette | None = None
) -> AsyncIterator[dict[str, Any]]:
    """
    Return the wallet's events (testwallet._openai_chat.wallet_events) answering an AI Wallet
    chat's params, asked as an OpenAI chat (streamed or not) of `recording` (default: the
    settings' cassette). Raises, before any event, NotRecorded in replay when it has no
    recording, RelayError when the model server is not named or refuses. The served cassette
    (testwallet/cassette/serve.py), the relay and the aiwallet driver's model all answer here.
    """
    body = wallet_chat_request(params, stream)
    if stream:
        return wallet_events(await chat_events(conf, body, recording))

    async def ask() -> dict[str, Any]:
        _model_server(conf, "chat")
        return await upstream.complete_chat(conf, body)

    completion = await (recording or cassette(conf)).chat(upstream.chat_body(conf, body), ask)
    return completion_events(completion)


async def streamed_answer(
    conf: RelaySettings, body: dict[str, Any], recording: Cassette | None = None
) -> StreamedAnswer:
    """
    Return a streamed chat's answer read whole (its text pieces, tool calls, finish and usage),
    as chat_events gives it; raises NotRecorded, or RelayError when the model server is not
    named, fails, or breaks off the answer. The test-driven stand-ins' models ask here.
    """
    answer = StreamedAnswer()
    async for event in await chat_events(conf, body, recording):
        error = event.get("error")
        if isinstance(error, dict):  # the model server broke off
            status = error.get("status")
            raise RelayError(
                str(error.get("message") or "The model server failed"),
                status if isinstance(status, int) else 502,
            )
        answer.add(event)
    return answer


async def chat_stream(conf: RelaySettings, body: dict[str, Any]) -> AsyncIterator[bytes]:
    """Return the event stream of a streamed chat, from the cassette or recorded into it."""
    try:
        events = await chat_events(conf, body)
    except NotRecorded as error:
        raise refused(error) from None
    return _as_bytes(events)


async def _as_bytes(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    async for event in events:
        yield upstream.event_bytes(event)
    yield upstream.DONE


async def transcribe(conf: RelaySettings, wav: bytes, language: str | None) -> dict[str, str]:
    """Return what was heard in the clip, from the cassette (by the clip's hash) or recorded into it."""

    async def ask() -> dict[str, str]:
        _model_server(conf, "transcribe")
        return await upstream.transcribe(conf, wav, language)

    try:
        return await cassette(conf).transcribe(wav, language, ask)
    except NotRecorded as error:
        raise refused(error) from None
