"""
The headless wallet's ``audio.transcribe`` through a cassette: ``RecordedBackend`` wraps any
transcriber (Whisper, PocketSphinx, a script) so that a clip heard before, found by its hash, is
answered from the recording, and a new one is heard by the transcriber and recorded (as
``TESTWALLET_RECORD`` says). ``text.generate`` of ``OpenAICompatibleBackend`` records itself,
through the same cassette (its ``cassette=``); every other skill goes to the wrapped backend.
"""

import base64
import binascii
from collections.abc import AsyncIterator
from typing import Any

from testwallet.cassette import Cassette, CassetteError
from testwallet.direct.backends import SkillBackend
from testwallet.direct.exceptions import BackendError


class RecordedBackend:
    """A SkillBackend whose ``audio.transcribe`` answers come from a cassette, or go into it."""

    def __init__(self, backend: SkillBackend, cassette: Cassette) -> None:
        self.backend = backend
        self.cassette = cassette
        self.provider_kind = backend.provider_kind
        self.receipt_provider = backend.receipt_provider

    def skills(self) -> set[str]:
        """Return the wrapped backend's skills."""
        return self.backend.skills()

    def model_codes(self) -> list[str]:
        """Return the wrapped backend's model codes."""
        return self.backend.model_codes()

    def estimated_cost(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> str:
        """Return what the wrapped backend says a call costs."""
        return self.backend.estimated_cost(skill, input, params)

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        """Answer a clip from the recording (or hear and record it); pass any other call on."""
        if skill != "audio.transcribe":
            return await self.backend.run(skill, input, params)
        try:
            wav = base64.b64decode(input["audio"]["base64"], validate=True)
        except (TypeError, KeyError, binascii.Error):
            raise BackendError("the input is not a base64 WAV clip") from None
        language = params.get("language") if isinstance(params.get("language"), str) else None

        async def hear() -> dict[str, str]:
            output = await self.backend.run(skill, input, params)
            return {"text": str(output.get("text", ""))}

        try:
            return await self.cassette.transcribe(wav, language, hear)
        except CassetteError as error:
            raise BackendError(error.message) from None

    async def stream(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> AsyncIterator[str]:
        """Yield a clip's text in one piece; stream any other call from the wrapped backend."""
        if skill == "audio.transcribe":
            yield (await self.run(skill, input, params))["text"]
            return
        async for piece in self.backend.stream(skill, input, params):
            yield piece
