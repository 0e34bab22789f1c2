"""
A stand-in for Chrome's built-in model (the Prompt API's ``LanguageModel``) in a Playwright page,
with the test as the model (the ``builtin_model`` fixture); the stand-in itself is
``frontend/testwallet/languagemodel.js``, answered through the binding ``__testwalletLanguageModel``.

``availability`` is what ``LanguageModel.availability()`` says ('available' by default).
``reply(*answers)`` queues answers (a string, ``{"pieces": [...]}`` streamed, or ``{"error": name}``);
``answer_with(function)`` answers once the queue is empty; ``answer_from_model(cassette)`` answers
from a cassette. ``prompts`` logs each prompt as the page sent it; ``downloads`` counts downloads.
More: docs/explanation/testwallet.md.
"""

import asyncio
import inspect
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

from testwallet._driver import stub_path
from testwallet._openai_chat import prompt_request
from testwallet.cassette import Cassette, NotRecorded
from testwallet.cassette.fixtures import MARKER
from testwallet.relay import recorded
from testwallet.relay.conf import environment_settings
from testwallet.relay.exceptions import RelayError

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

    from testwallet.relay.conf import RelaySettings

__all__ = ["BINDING", "BuiltinModel", "builtin_model", "script_path"]

#: What ``LanguageModel.availability()`` says.
Availability = Literal["available", "downloadable", "downloading", "unavailable"]
#: A prompt as the page sent it (``initialPrompts``, ``input``, ``responseConstraint``, ``streaming``).
Prompt = dict[str, Any]
#: An answer: a string, ``{"pieces": [...]}`` streamed in pieces, or ``{"error": "NotSupportedError"}``
#: (a DOMException's name, and its ``"message"`` when given).
ModelAnswer = str | dict[str, Any]

#: The Playwright binding through which languagemodel.js asks the test.
BINDING = "__testwalletLanguageModel"


def script_path() -> Path:
    """Return the path of the stand-in, ``frontend/testwallet/languagemodel.js`` (shipped in the wheel)."""
    return stub_path("languagemodel.js")


class BuiltinModel:
    """The model behind the stand-in ``LanguageModel``: the test answers each prompt."""

    def __init__(self) -> None:
        self.availability: Availability = "available"
        self.prompts: list[Prompt] = []
        self.downloads = 0
        self._queue: deque[ModelAnswer] = deque()
        self._function: Callable[[Prompt], ModelAnswer | Awaitable[ModelAnswer]] | None = None
        self._changed = asyncio.Event()
        self._errors: list[Exception] = []

    async def install(self, target: "Page | BrowserContext") -> None:
        """Give a Playwright page or context the stand-in ``LanguageModel``, before its scripts run."""
        await target.expose_binding(BINDING, self._on_message)
        await target.add_init_script(path=str(stub_path("panel.js")))
        await target.add_init_script(path=str(script_path()))

    def answer_from_model(self, cassette: Cassette, server: "RelaySettings | None" = None) -> None:
        """
        Answer every prompt the queue does not from a model through ``cassette``: replayed, or (record
        modes) asked of ``server`` (default: TESTWALLET_MODEL_URL) and recorded.
        """
        conf = server or environment_settings(cassette=str(cassette.path), record=cassette.mode.value)

        async def from_model(prompt: Prompt) -> ModelAnswer:
            # Always streamed, so that prompt() and promptStreaming() of the same words share a recording.
            try:
                answer = await recorded.streamed_answer(conf, prompt_request(prompt, True), cassette)
            except NotRecorded as error:
                self._errors.append(error)
                return {"error": "UnknownError", "message": error.message}
            except RelayError as error:
                return {"error": "UnknownError", "message": error.message}
            return {"pieces": answer.deltas} if prompt.get("streaming") else "".join(answer.deltas)

        self._function = from_model

    def check(self) -> None:
        """Raise the first prompt the cassette had no recording of (NotRecorded), and forget them."""
        errors, self._errors = self._errors, []
        if errors:
            raise errors[0]

    def reply(self, *answers: ModelAnswer) -> None:
        """Queue the answers of the next prompts."""
        self._queue.extend(answers)

    def answer_with(self, function: Callable[[Prompt], ModelAnswer | Awaitable[ModelAnswer]] | None) -> None:
        """Answer every prompt the queue does not with ``function(prompt)`` (or an awaitable of it)."""
        self._function = function

    async def wait_for_prompts(self, count: int, timeout: float = 5.0) -> None:
        """Wait until `count` prompts have been asked, at most `timeout` seconds."""
        async with asyncio.timeout(timeout):
            while len(self.prompts) < count:
                self._changed.clear()
                await self._changed.wait()

    async def _on_message(self, _source: dict[str, Any], message: Prompt) -> ModelAnswer | None:
        """Called by languagemodel.js for availability, each prompt and a finished download."""
        try:
            kind = message.get("type")
            if kind == "availability":
                return self.availability
            if kind == "downloaded":
                self.downloads += 1
                return None
            self.prompts.append(message)
            if self._queue:
                return self._queue.popleft()
            if self._function is not None:
                answer = self._function(message)
                return await answer if inspect.isawaitable(answer) else answer
            return {"error": "NotSupportedError"}
        finally:
            self._changed.set()


@pytest.fixture
def builtin_model(request: pytest.FixtureRequest) -> Iterator[BuiltinModel]:
    """
    Return the model behind a stand-in ``LanguageModel``; ``await builtin_model.install(page)`` first.
    On a test marked ``@pytest.mark.testwallet_cassette(path)`` it answers from that cassette.
    """
    model = BuiltinModel()
    if request.node.get_closest_marker(MARKER) is not None:
        model.answer_from_model(request.getfixturevalue("testwallet_cassette"))
    yield model
    model.check()
