"""
Which phrases of a vocabulary a transcript comes closest to, in any script: ``Phrasebook(phrases)``,
with ``closest(transcripts, count)`` and ``said(text)`` (a phrase said whole, or None).

Texts are compared folded (case, marks, Cyrillic in Latin letters, punctuation) by difflib's
ratio: docs/explanation/testwallet.md.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

__all__ = ["Phrasebook", "folded"]

# Russian's letters in Latin, after marks are stripped (so й is и, ё is е): one common romanisation.
_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z", "и": "i", "к": "k",
    "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e",
    "ю": "yu", "я": "ya", "і": "i", "є": "e",
}  # fmt: skip
_LATIN = str.maketrans(_CYRILLIC)


def folded(text: str) -> str:
    """Return ``text`` as it is compared: lower case, no marks, Latin letters, words split by one space."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return " ".join(re.findall(r"[^\W_]+", plain.translate(_LATIN)))


class Phrasebook:
    """A vocabulary's phrases, folded once, to find which of them a transcript is."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self.phrases: tuple[str, ...] = tuple(dict.fromkeys(phrases))
        self.folded: tuple[str, ...] = tuple(folded(phrase) for phrase in self.phrases)

    def closest(self, texts: Sequence[str], limit: int) -> list[str]:
        """Return the ``limit`` phrases closest to any of ``texts``, closest first (ties in vocabulary order)."""
        best = [0.0] * len(self.phrases)
        matcher = difflib.SequenceMatcher(autojunk=False)
        for text in {folded(text) for text in texts}:
            matcher.set_seq2(text)  # difflib caches what it learns of the second sequence
            for index, phrase in enumerate(self.folded):
                matcher.set_seq1(phrase)
                # quick_ratio bounds ratio from above: the exact ratio only where it could count.
                if matcher.real_quick_ratio() > best[index] and matcher.quick_ratio() > best[index]:
                    best[index] = max(best[index], matcher.ratio())
        order = sorted(range(len(self.phrases)), key=lambda index: -best[index])
        return [self.phrases[index] for index in order[:limit]]

    def similarity(self, phrase: str, texts: Sequence[str]) -> float:
        """Return how close ``phrase`` comes to the closest of ``texts`` (1.0: the same once folded)."""
        target = folded(phrase)
        return max(
            (difflib.SequenceMatcher(None, target, folded(text)).ratio() for text in texts), default=0.0
        )

    def said(self, text: str) -> str | None:
        """Return the longest phrase whose words come whole, in order, in ``text`` (None when none does)."""
        words = f" {folded(text)} "
        found = [
            (len(phrase), -index)
            for index, phrase in enumerate(self.folded)
            if phrase and f" {phrase} " in words
        ]
        return self.phrases[-max(found)[1]] if found else None
