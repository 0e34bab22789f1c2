"""
Skill backends of the headless wallet: what answers a call once the gate
(``bringyourownagent.check_call``) has let it through.

- ``SkillBackend``: what the wallet needs of a backend (a Protocol); ``Backend``
  is a base class that has it, with every method's default.
- ``ScriptedBackend``: answers from a script, for tests.
- ``OpenAICompatibleBackend``: ``text.generate`` through any OpenAI-compatible
  chat completions API (a local Ollama or LM Studio, or OpenRouter).

A backend raises ``BackendError`` (or anything) to answer ``ok: false``.
"""

import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Protocol

import httpx

from testwallet._openai_chat import delta_text, generate_request
from testwallet.cassette import Cassette, CassetteError
from testwallet.direct.exceptions import BackendError

#: What a script answers a skill with: an output object, or a (sync or async) function of (input, params).
Answer = (
    dict[str, Any] | Callable[[dict[str, Any], dict[str, Any]], dict[str, Any] | Awaitable[dict[str, Any]]]
)


class SkillBackend(Protocol):
    """What the wallet asks of a backend: which skills and model codes, what a call costs, and its answer.

    Any object with these answers, such as a ``Backend`` subclass (a transcriber, a model server's
    client). ``run`` and ``stream`` raise (``BackendError`` or anything) to answer ``ok: false``.
    """

    #: What check_call calls the provider (a bringyourownagent PROVIDER_KINDS value).
    provider_kind: str
    #: What the result's receipt names as the provider.
    receipt_provider: str

    def skills(self) -> set[str]: ...

    def model_codes(self) -> list[str]: ...

    def estimated_cost(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> str: ...

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]: ...

    def stream(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> AsyncIterator[str]: ...


class Backend:
    """A base of a SkillBackend: no skills, no model codes, every call free; override what you answer."""

    #: What check_call calls the provider (a bringyourownagent PROVIDER_KINDS value).
    provider_kind = "local-model"
    #: What the result's receipt names as the provider.
    receipt_provider = "local"

    def skills(self) -> set[str]:
        """Return the skill ids this backend answers."""
        return set()

    def model_codes(self) -> list[str]:
        """Return the model codes (m1, m2 ...) this backend can answer text.generate with."""
        return []

    def estimated_cost(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> str:
        """Return the cost of a call as a money string, for the gate and the receipt."""
        return "0 USD"

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        """Return the output object of one call."""
        raise BackendError(f"this backend does not answer {skill}")

    async def stream(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> AsyncIterator[str]:
        """Yield the text of one call in pieces; by default one piece, the whole answer."""
        output = await self.run(skill, input, params)
        yield output.get("text", "")


class ScriptedBackend(Backend):
    """Answer each skill from a script: a value, or a (sync or async) function of (input, params).

    ``ScriptedBackend({"audio.transcribe": {"text": "Peru"}})`` answers every
    clip with Peru. Streams split the text into words. Every call it answers
    is appended to ``calls`` as (skill, input, params).
    """

    def __init__(
        self,
        script: Mapping[str, Answer],
        *,
        models: tuple[str, ...] | list[str] = ("m1",),
        provider_kind: str = "local-model",
        receipt_provider: str = "local",
    ) -> None:
        self.script = dict(script)
        self.models = list(models)
        self.provider_kind = provider_kind
        self.receipt_provider = receipt_provider
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    def skills(self) -> set[str]:
        return set(self.script)

    def model_codes(self) -> list[str]:
        return list(self.models)

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        if skill not in self.script:
            raise BackendError(f"no script for {skill}")
        self.calls.append((skill, input, params))
        answer: object = self.script[skill]
        if callable(answer):
            answer = answer(input, params)
            if inspect.isawaitable(answer):
                answer = await answer
        if not isinstance(answer, dict):
            raise BackendError("a script must answer with an object")
        return answer

    async def stream(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> AsyncIterator[str]:
        output = await self.run(skill, input, params)
        words = output.get("text", "").split(" ")
        for index, word in enumerate(words):
            yield word if index == 0 else " " + word


class OpenAICompatibleBackend(Backend):
    """``text.generate`` through an OpenAI-compatible ``/chat/completions`` API.

    ``models`` maps the codes a grant uses to the provider's model names, e.g.
    ``{"m1": "llama3.2"}``. Pass ``client`` (an ``httpx.AsyncClient``) to use
    your own transport, e.g. ``httpx.MockTransport`` in tests.
    """

    def __init__(
        self,
        base_url: str,
        models: Mapping[str, str],
        *,
        api_key: str | None = None,
        provider_kind: str = "local-model",
        receipt_provider: str = "openai-compatible",
        timeout: float = 60.0,
        client: httpx.AsyncClient | None = None,
        cassette: "Cassette | None" = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        #: Recorded answers (testwallet.cassette): replayed, or asked of the server and recorded.
        self.cassette = cassette
        self.models = dict(models)
        self.provider_kind = provider_kind
        self.receipt_provider = receipt_provider
        headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = client or httpx.AsyncClient(timeout=timeout)
        self.headers = headers

    def skills(self) -> set[str]:
        return {"text.generate"}

    def model_codes(self) -> list[str]:
        return list(self.models)

    def _request(self, input: object, params: dict[str, Any], stream: bool) -> dict[str, Any]:
        # `input` is the site's word, checked here whatever run() or stream() was handed: a backend
        # is public API, and a caller other than the wallet may not have checked it is an object.
        messages = input.get("messages") if isinstance(input, dict) else None
        if not isinstance(messages, list) or not all(
            isinstance(m, dict)
            and m.get("role") in ("system", "user", "assistant")
            and isinstance(m.get("content"), str)
            for m in messages
        ):
            raise BackendError("text.generate takes a list of chat messages")
        code = params.get("model") or next(iter(self.models))
        if code not in self.models:
            raise BackendError("no such model code")
        return generate_request(self.models[code], messages, params, stream)

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        if skill != "text.generate":
            raise BackendError(f"this backend does not answer {skill}")
        body = self._request(input, params, False)
        try:
            asking = (
                self.cassette.chat(body, lambda: self._complete(body))
                if self.cassette
                else self._complete(body)
            )
            completion = await asking
        except CassetteError as error:
            raise BackendError(error.message) from None
        try:
            text = completion["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise BackendError("the provider's answer has no text") from None
        return {"text": text if isinstance(text, str) else ""}

    async def _complete(self, body: dict[str, Any]) -> dict[str, Any]:
        self._named()
        response = await self.client.post(
            f"{self.base_url}/chat/completions", json=body, headers=self.headers
        )
        if response.status_code != 200:
            raise BackendError(f"the provider answered {response.status_code}")
        try:
            completion: dict[str, Any] = response.json()
        except ValueError:
            raise BackendError("the provider's answer is not JSON") from None
        return completion

    def _named(self) -> None:
        if not self.base_url:
            raise BackendError("no model server is named to answer what the cassette has not recorded")

    async def stream(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> AsyncIterator[str]:
        if skill != "text.generate":
            raise BackendError(f"this backend does not answer {skill}")
        body = self._request(input, params, True)
        try:
            events = await (
                self.cassette.chat_stream(body, lambda: self._events(body))
                if self.cassette
                else self._events(body)
            )
            async for event in events:
                delta = delta_text(event)
                if delta:
                    yield delta
        except CassetteError as error:
            raise BackendError(error.message) from None

    async def _events(self, body: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        self._named()
        return self._each_event(body)

    async def _each_event(self, body: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        async with self.client.stream(
            "POST", f"{self.base_url}/chat/completions", json=body, headers=self.headers
        ) as response:
            if response.status_code != 200:
                raise BackendError(f"the provider answered {response.status_code}")
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    event = json.loads(data)
                except ValueError:
                    continue
                if isinstance(event, dict):
                    yield event
