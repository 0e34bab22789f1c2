"""
``audio.transcribe`` offline, with CMU PocketSphinx and the US English model its package ships
(``pip install 'visitor-ai[speech]'``; nothing is downloaded at run time):
``PocketSphinxBackend(vocabulary=[...])``, a backend of ``DirectWallet``.

With a vocabulary the answer is one of its phrases or nothing; a call not in English is
answered ``ok: false``. Why: docs/howto/voice.md and docs/explanation/testwallet.md.
"""

import asyncio
import base64
import os
import random
import re
import sys
import threading
from array import array
from collections.abc import Sequence
from typing import Any

from byoa.wire import wav
from testwallet.direct.backends import Backend
from testwallet.direct.exceptions import BackendError

INSTALL_HINT = "pip install 'visitor-ai[speech]' (make test installs it)"
DITHER_SEED = 16000


def read_vocabulary(path: str | os.PathLike[str]) -> list[str]:
    """Return the phrases of a vocabulary file: one per line; blank lines and # comments are skipped."""
    with open(path, encoding="utf-8") as lines:
        return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def is_english(language: object) -> bool:
    """Return True for a language tag the English model can hear (``en``, ``en-GB`` ...) or none at all."""
    if language is None:
        return True
    return isinstance(language, str) and re.fullmatch(r"en(-[A-Za-z0-9]+)*", language) is not None


class PocketSphinxBackend(Backend):
    """Answer ``audio.transcribe`` with PocketSphinx, free-form or restricted to a vocabulary."""

    receipt_provider = "pocketsphinx"

    def __init__(self, vocabulary: Sequence[str] | None = None) -> None:
        if isinstance(vocabulary, str):
            raise TypeError("vocabulary is a list of phrases: read a file with read_vocabulary(path)")
        try:
            import pocketsphinx
        except ImportError:
            raise ImportError(
                f"the pocketsphinx transcriber needs the speech extra: {INSTALL_HINT}"
            ) from None
        # With a vocabulary the grammar replaces the language model: not loading it saves time and memory.
        free_form = {} if vocabulary is None else {"lm": None}
        self.decoder = pocketsphinx.Decoder(samprate=wav.RATE, loglevel="FATAL", **free_form)
        self.phrases = None  # the model's spelling of each phrase -> the vocabulary's
        if vocabulary is not None:
            self.phrases = self._phrases(vocabulary)
            rule = " | ".join(sorted(self.phrases))
            grammar = f"#JSGF V1.0;\ngrammar vocabulary;\npublic <phrase> = {rule};\n"
            self.decoder.add_jsgf_string("vocabulary", grammar)
            self.decoder.activate_search("vocabulary")
        # One decoder, one clip at a time: it keeps state between start_utt and end_utt.
        self.lock = threading.Lock()

    def _phrases(self, vocabulary: Sequence[str]) -> dict[str, str]:
        phrases: dict[str, str] = {}
        unknown: list[str] = []
        for phrase in vocabulary:
            words = re.findall(r"[\w']+", phrase.casefold())
            if not words or any(self.decoder.lookup_word(word) is None for word in words):
                unknown.append(phrase)
                continue
            phrases.setdefault(" ".join(words), phrase)
        if unknown:
            raise ValueError(
                f"not in the English model's dictionary: {', '.join(map(repr, unknown))}; "
                "remove these phrases or spell them with common English words"
            )
        if not phrases:
            raise ValueError("the vocabulary is empty: give at least one phrase")
        return phrases

    def skills(self) -> set[str]:
        return {"audio.transcribe"}

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        if skill != "audio.transcribe":
            raise BackendError(f"this backend does not answer {skill}")
        if not is_english(params.get("language")):
            raise BackendError("the pocketsphinx model is English only")
        try:
            samples = wav.pcm(base64.b64decode(input["audio"]["base64"], validate=True))
        except (TypeError, KeyError, ValueError) as exc:
            raise BackendError("the input is not a 16 kHz mono 16-bit WAV clip") from exc
        return {"text": await asyncio.to_thread(self._transcribe, samples)}

    def _transcribe(self, samples: bytes) -> str:
        """Return the text heard in 16-bit PCM samples ("" when nothing is recognized)."""
        with self.lock:
            self.decoder.start_utt()
            self.decoder.process_raw(_dithered(samples), full_utt=True)
            self.decoder.end_utt()
            hypothesis = self.decoder.hyp()
        heard = hypothesis.hypstr if hypothesis is not None else ""
        if self.phrases is None:
            return heard
        # The grammar's best path may stop inside a phrase ("new" of "new zealand"): that is no answer.
        return self.phrases.get(heard, "")


def _dithered(samples: bytes) -> bytes:
    """Return the samples with +-1 of noise, the same for the same clip.

    Digital silence (runs of exact zeros, as synthetic speech and padded clips
    have) breaks the model's log-energy features. PocketSphinx's own ``dither``
    draws from one generator for the decoder's life, so a clip's transcript
    would depend on the clips decoded before it; this noise does not.
    """
    values = array("h", samples[: len(samples) // 2 * 2])
    if sys.byteorder == "big":
        values.byteswap()  # WAV is little-endian; the decoder reads native order
    noise = random.Random(DITHER_SEED)
    return array("h", (max(-32768, min(32767, v + noise.randint(-1, 1))) for v in values)).tobytes()
