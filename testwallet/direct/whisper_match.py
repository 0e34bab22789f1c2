"""
Which phrase of a vocabulary a Whisper model hears in a clip, for the cost of about one decoding
whatever the vocabulary's size: ``PhraseMatcher(model).match(audio, language, phrasebooks)``
returns the phrase, or "" for none.

The steps (speech detection, one free decoding, candidates scored by forced decoding):
docs/explanation/testwallet.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from testwallet.direct.phrases import Phrasebook

__all__ = ["Candidate", "Hearing", "PhraseMatcher"]

#: Any language a vocabulary's phrases are for (testwallet.direct.whisper's ``ANY_LANGUAGE``).
ANY_LANGUAGE = "*"
#: The free decoding: beam width, and how many of its best transcripts name candidates.
BEAM = 5
#: How many phrases the model scores: those spelled closest to the free transcripts...
SPELLED_CANDIDATES = 16
#: ...and those whose first token the model finds likeliest (a name misheard past recognition).
SOUNDED_CANDIDATES = 8
#: A candidate's score: its tokens' mean log-probability plus this times its spelling's closeness.
SPELLING_WEIGHT = 2.0
#: Encoder frames (20 ms each) kept after the speech for scoring: the decoder's context for its end.
TAIL_FRAMES = 50
#: A phrase whose tokens the model finds this many nats less likely, each, than those of its free
#: transcript is not what was said...
REJECT_NATS = 5.0
#: ...unless its spelling is at least this close to that transcript (difflib's ratio, folded).
KEEP_SIMILARITY = 0.5
#: Candidates scored in one batch (each carries its copy of the cut encoder output).
BATCH = 16


@dataclass(frozen=True)
class Candidate:
    """A phrase, the mean log-probability of its tokens as the clip's transcript, and its spelling's closeness."""

    phrase: str
    logprob: float
    similarity: float


@dataclass(frozen=True)
class Hearing:
    """What the model made of a clip with speech in it.

    ``texts``: its free transcripts, surest first; ``said``: the phrase the surest holds whole, if
    any; ``candidates``: the phrases it scored otherwise (none without a vocabulary for the
    language); ``logprob``: the mean log-probability of the surest transcript's tokens, scored as
    the candidates are.
    """

    texts: list[str]
    said: str | None
    candidates: list[Candidate]
    logprob: float


class PhraseMatcher:
    """Find the vocabulary phrase said in a clip with a faster-whisper ``WhisperModel`` (loaded by the caller)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self._tokens: dict[tuple[str, tuple[str, ...]], dict[str, list[int]]] = {}

    def match(self, audio: Any, language: str | None, vocabularies: Mapping[str, Phrasebook]) -> str:
        """Return the phrase of ``audio`` (float32 samples at 16 kHz), or "" for silence or no phrase.

        ``language`` None: Whisper tells the language; a language with no vocabulary (and
        no ``"*"`` one) gets the free transcript.
        """
        heard = self.hear(audio, language, vocabularies)
        if heard is None or not heard.texts:
            return ""
        if heard.said is not None:
            return heard.said
        if not heard.candidates:
            return heard.texts[0]
        best = max(heard.candidates, key=lambda c: SPELLING_WEIGHT * c.similarity + c.logprob)
        if best.logprob < heard.logprob - REJECT_NATS and best.similarity < KEEP_SIMILARITY:
            return ""
        return best.phrase

    def hear(
        self, audio: Any, language: str | None, vocabularies: Mapping[str, Phrasebook]
    ) -> Hearing | None:
        """Return what the model makes of ``audio`` and of the vocabulary's candidates; None for no speech."""
        import numpy
        from faster_whisper.audio import pad_or_trim  # type: ignore[import-untyped]
        from faster_whisper.vad import collect_chunks, get_speech_timestamps  # type: ignore[import-untyped]

        spoken = get_speech_timestamps(audio)
        if not spoken:
            return None
        speech = numpy.concatenate(collect_chunks(audio, spoken)[0])
        features = self.model.feature_extractor(speech)
        frames = min(features.shape[-1], self.model.feature_extractor.nb_max_frames)
        encoded = self.model.encode(pad_or_trim(features))
        if language is None:
            language = self.model.model.detect_language(encoded)[0][0][0][2:-2]
        book = vocabularies.get(language) or vocabularies.get(ANY_LANGUAGE)
        tokenizer = self._tokenizer(language)
        start = [*tokenizer.sot_sequence, tokenizer.no_timestamps]
        free = self._transcripts(encoded, start, book, tokenizer)
        texts = [text for text, _tokens in free]
        said = book.said(texts[0]) if book is not None and texts else None
        if book is None or said is not None or not texts:
            return Hearing(texts, said, [], 0.0)
        cut = numpy.array(encoded)[:, : min(frames // 2 + TAIL_FRAMES, encoded.shape[1])]
        tokens = self._phrase_tokens(language, book, tokenizer)
        first = self._first_token_logprobs(cut, start)
        phrases = list(
            dict.fromkeys(
                [
                    *book.closest(texts, SPELLED_CANDIDATES),
                    *sorted(book.phrases, key=lambda phrase: -first[tokens[phrase][0]])[:SOUNDED_CANDIDATES],
                ]
            )
        )
        *scores, transcript = self._mean_logprobs(
            cut, start, [*(tokens[phrase] for phrase in phrases), free[0][1]], frames // 2
        )
        candidates = [
            Candidate(phrase, score, book.similarity(phrase, texts))
            for phrase, score in zip(phrases, scores, strict=True)
        ]
        return Hearing(texts, None, candidates, transcript)

    def _tokenizer(self, language: str) -> Any:
        from faster_whisper.tokenizer import Tokenizer  # type: ignore[import-untyped]

        multilingual = bool(self.model.model.is_multilingual)
        return Tokenizer(
            self.model.hf_tokenizer,
            multilingual,
            task="transcribe",
            language=language if multilingual else "en",
        )

    def _transcripts(
        self, encoded: Any, start: list[int], book: Phrasebook | None, tokenizer: Any
    ) -> list[tuple[str, list[int]]]:
        """Return the free decoding's best transcripts, surest first, with their tokens (empty ones dropped)."""
        longest = max((len(tokenizer.encode(" " + p)) for p in book.phrases), default=0) if book else 0
        # A clip is one short answer: a transcript twice the longest phrase says all it can about it.
        new_tokens = 2 * longest + 8 if book else 200
        result = self.model.model.generate(
            encoded,
            [start],
            beam_size=BEAM,
            num_hypotheses=BEAM,
            max_length=min(len(start) + new_tokens, 448),
        )[0]
        found = []
        for ids in result.sequences_ids:
            text = tokenizer.decode(ids).strip()
            if text:
                found.append((text, list(ids)))
        return found

    def _phrase_tokens(self, language: str, book: Phrasebook, tokenizer: Any) -> dict[str, list[int]]:
        """Return each phrase's tokens as a transcript (after a space, as Whisper writes a text's first word)."""
        key = (language, book.phrases)
        if key not in self._tokens:
            self._tokens[key] = {phrase: tokenizer.encode(" " + phrase) for phrase in book.phrases}
        return self._tokens[key]

    def _first_token_logprobs(self, cut: Any, start: list[int]) -> Any:
        """Return the log-probability of each token as the transcript's first (one decoder step)."""
        import numpy

        result = self.model.model.generate(
            _repeated(cut, 1), [start], beam_size=1, max_length=len(start) + 1, return_logits_vocab=True
        )[0]
        logits = numpy.asarray(result.logits[0][0], dtype=numpy.float32).ravel()
        top = logits.max()
        return logits - top - numpy.log(numpy.exp(logits - top).sum())

    def _mean_logprobs(
        self, cut: Any, start: list[int], tokens: Sequence[list[int]], frames: int
    ) -> list[float]:
        """Return the mean log-probability of the tokens of each text as the transcript (forced decoding)."""
        scores: list[float] = []
        for first in range(0, len(tokens), BATCH):
            batch = list(tokens[first : first + BATCH])
            for aligned in self.model.model.align(_repeated(cut, len(batch)), start, batch, max(frames, 1)):
                probabilities = aligned.text_token_probs
                scores.append(
                    sum(math.log(max(p, 1e-12)) for p in probabilities) / max(len(probabilities), 1)
                )
        return scores


def _repeated(encoded: Any, times: int) -> Any:
    """Return ``times`` copies of one clip's encoder output as one batch, as CTranslate2 takes it."""
    import ctranslate2  # type: ignore[import-untyped]
    import numpy

    return ctranslate2.StorageView.from_array(numpy.ascontiguousarray(numpy.repeat(encoded, times, 0)))
