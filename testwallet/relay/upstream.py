"""
Calls to the developer's OpenAI-compatible server: chat completions (streamed or
not) and audio transcriptions. Every call is bounded by the relay's timeout, and
nothing of a request or an answer is logged.
"""

import asyncio
import functools
import json
import ssl
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx

from testwallet.relay.conf import RelaySettings
from testwallet.relay.exceptions import RelayError, UpstreamError

#: The chat request's keys the relay passes on; the model is the relay's own.
CHAT_KEYS = frozenset(
    {
        "messages",
        "tools",
        "tool_choice",
        "max_tokens",
        "temperature",
        "top_p",
        "stop",
        "stream",
        "response_format",
    }
)
#: How much of an error text from the model server reaches the page.
ERROR_TEXT_CHARS = 300


@functools.cache
def _tls() -> ssl.SSLContext:
    # httpx's own default, made once: each new client would read the CA bundle again, which costs
    # more CPU than a relayed request to a model server on the same machine.
    return httpx.create_ssl_context()


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=None, verify=_tls())


def chat_body(conf: RelaySettings, asked: dict[str, Any]) -> dict[str, Any]:
    """Return the body to send upstream: the page's allowed keys, and the configured model."""
    body = {key: value for key, value in asked.items() if key in CHAT_KEYS}
    if conf.model:
        body["model"] = conf.model
    return body


def headers(conf: RelaySettings) -> dict[str, str]:
    return {"authorization": f"Bearer {conf.model_key}"} if conf.model_key else {}


def _too_slow(conf: RelaySettings) -> UpstreamError:
    return UpstreamError(f"The model server took longer than {conf.timeout:g} s to answer", 504)


async def _refusal(response: httpx.Response) -> UpstreamError:
    """Return the UpstreamError for a non-200 answer, with the server's own short reason."""
    try:
        await response.aread()
        detail: Any = response.json().get("error")
        detail = detail.get("message") if isinstance(detail, dict) else detail
    except (ValueError, AttributeError, httpx.HTTPError):
        detail = None
    reason = f": {str(detail)[:ERROR_TEXT_CHARS]}" if isinstance(detail, str) and detail else ""
    return UpstreamError(f"The model server answered {response.status_code}{reason}", 502)


async def complete_chat(conf: RelaySettings, asked: dict[str, Any]) -> dict[str, Any]:
    """Return the model server's chat completion (a dict) for the page's request, not streamed."""
    body = {**chat_body(conf, asked), "stream": False}
    try:
        async with asyncio.timeout(conf.timeout), _client() as client:
            response = await client.post(
                f"{conf.model_url}/chat/completions", json=body, headers=headers(conf)
            )
            if response.status_code != 200:
                raise await _refusal(response)
            completion: dict[str, Any] = response.json()
            return completion
    except TimeoutError:
        raise _too_slow(conf) from None
    except (httpx.HTTPError, ValueError) as error:
        raise UpstreamError(f"The model server could not be reached ({type(error).__name__})", 502) from None


async def open_chat_stream(conf: RelaySettings, asked: dict[str, Any]) -> AsyncIterator[bytes]:
    """
    Start a streamed chat completion and return an async iterator of the server's
    event-stream bytes, as they come. Raises UpstreamError until the answer starts;
    after that, a failure or the deadline ends the stream with an error event.
    """
    deadline = time.monotonic() + conf.timeout
    body = {**chat_body(conf, asked), "stream": True}
    client = _client()
    try:
        async with asyncio.timeout(conf.timeout):
            request = client.build_request(
                "POST", f"{conf.model_url}/chat/completions", json=body, headers=headers(conf)
            )
            response = await client.send(request, stream=True)
            if response.status_code != 200:
                error = await _refusal(response)
                await response.aclose()
                raise error
    except BaseException as error:
        await client.aclose()
        if isinstance(error, TimeoutError):
            raise _too_slow(conf) from None
        if isinstance(error, httpx.HTTPError):
            raise UpstreamError(
                f"The model server could not be reached ({type(error).__name__})", 502
            ) from None
        raise
    return _pass_through(conf, client, response, deadline)


async def _pass_through(
    conf: RelaySettings, client: httpx.AsyncClient, response: httpx.Response, deadline: float
) -> AsyncIterator[bytes]:
    try:
        chunks = response.aiter_raw()
        while True:
            try:
                async with asyncio.timeout(deadline - time.monotonic()):
                    chunk = await anext(chunks)
            except StopAsyncIteration:
                return
            except TimeoutError:
                yield error_event(_too_slow(conf))
                return
            except httpx.HTTPError as error:
                broken = f"The model server broke off the answer ({type(error).__name__})"
                yield error_event(UpstreamError(broken, 502))
                return
            yield chunk
    finally:
        await response.aclose()
        await client.aclose()


def error_event(error: RelayError) -> bytes:
    """Return an event-stream event carrying the error, in the shape OpenAI's streams use."""
    payload = json.dumps({"error": {"message": error.message, "status": error.status}})
    return f"\n\ndata: {payload}\n\n".encode()


async def transcribe(conf: RelaySettings, wav: bytes, language: str | None = None) -> dict[str, str]:
    """Return the text the transcription server hears in a WAV clip."""
    data = {"model": conf.transcribe_model}
    if language:
        data["language"] = language
    try:
        async with asyncio.timeout(conf.timeout), _client() as client:
            response = await client.post(
                f"{conf.transcribe_url}/audio/transcriptions",
                data=data,
                files={"file": ("clip.wav", wav, "audio/wav")},
                headers=headers(conf),
            )
            if response.status_code != 200:
                raise await _refusal(response)
            text = response.json().get("text")
    except TimeoutError:
        raise _too_slow(conf) from None
    except (httpx.HTTPError, ValueError, AttributeError) as error:
        raise UpstreamError(
            f"The transcription server could not be reached ({type(error).__name__})", 502
        ) from None
    if not isinstance(text, str):
        raise UpstreamError("The transcription server's answer has no text", 502)
    return {"text": text}


async def chat_events(conf: RelaySettings, asked: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    """
    Start a streamed chat completion and return its events (each ``data:``
    payload, parsed), for a cassette to record; an ``{"error": ...}`` event ends
    a stream that broke off. Raises UpstreamError until the answer starts.
    """
    return _events(await open_chat_stream(conf, asked))


async def _events(chunks: AsyncIterator[bytes]) -> AsyncIterator[dict[str, Any]]:
    buffer = b""
    async for chunk in chunks:
        buffer += chunk
        *whole, buffer = buffer.replace(b"\r\n", b"\n").split(b"\n\n")
        for event in whole:
            data = b"\n".join(line[5:].strip() for line in event.split(b"\n") if line.startswith(b"data:"))
            if not data or data == b"[DONE]":
                continue
            try:
                parsed = json.loads(data)
            except ValueError:
                continue  # a comment or keep-alive of some server
            if isinstance(parsed, dict):
                yield parsed


def event_bytes(event: dict[str, Any]) -> bytes:
    """Return one event of an OpenAI-style event stream."""
    return f"data: {json.dumps(event, ensure_ascii=False, sort_keys=True)}\n\n".encode()


#: The event that ends an OpenAI-style event stream.
DONE = b"data: [DONE]\n\n"
