"""
The verdict on an answer: which country a transcript (or a typed answer)
names, compared with the expected one. Pure functions of text and a table of
names; the model's opinion never enters, and neither does anything the page
says about the score.

A transcript names a country when one of its names appears in it as whole
words, after folding case, diacritics, punctuation and the article "the";
failing that, when a run of its words is within a small edit distance of a
name (longer names tolerate more). An answer that names two countries is wrong:
saying every country you know is not an answer.
"""

import enum
import re
import unicodedata
from dataclasses import dataclass

#: Words ignored wherever they appear (English articles).
IGNORED_WORDS = frozenset({"the"})


class Outcome(enum.StrEnum):
    CORRECT = "correct"  # names the expected country and no other
    WRONG = "wrong"  # names another country, several, or none we know
    NO_ANSWER = "no-answer"  # empty, or only punctuation and articles


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    said: str | None  # the one country the answer names, if exactly one


def normalise(text):
    """Return the words of a text folded for comparison: no case, diacritics, punctuation or articles."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = re.sub(r"[.'’ʼ`]", "", text)  # U.S.A. = USA, d’Ivoire = divoire
    text = re.sub(r"[\W_]+", " ", text)  # hyphens and other punctuation separate words
    return tuple(word for word in text.split() if word not in IGNORED_WORDS)


def allowed_distance(name):
    """Return how many edits a name tolerates: none up to 4 letters, 1 up to 8, then 2."""
    letters = len(name.replace(" ", ""))
    return 0 if letters <= 4 else 1 if letters <= 8 else 2


def edit_distance(a, b, limit):
    """Return the Levenshtein distance of two strings, or limit + 1 once it exceeds limit."""
    # Written here rather than taken from a library: a dozen lines, and the
    # early exit at `limit` keeps comparing against every country's names cheap.
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def prepare(table):
    """Return {country: set of normalised names} for a {country: names} table (do it once per table)."""
    return {
        code: {normalised for name in names if (normalised := normalise(name))}
        for code, names in table.items()
    }


def named_countries(words, prepared):
    """Return the countries a normalised text names (see the module docstring)."""
    for fuzzy in (False, True):
        spans = []
        for code, names in prepared.items():
            for name in names:
                spans.extend((start, start + len(name), code) for start in _places(words, name, fuzzy))
        if spans:
            # "Papua New Guinea" also contains "Guinea": a match inside a longer one does not count.
            kept = [
                s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o[:2] != s[:2] for o in spans)
            ]
            return {code for _start, _end, code in kept}
    return set()


def _places(words, name, fuzzy):
    size = len(name)
    joined = " ".join(name)
    limit = allowed_distance(joined)
    for start in range(len(words) - size + 1):
        window = words[start : start + size]
        if window == name or (fuzzy and limit and edit_distance(" ".join(window), joined, limit) <= limit):
            yield start


def judge(answer, expected, prepared):
    """Return the Verdict on an answer text for the expected country, given prepared names."""
    words = normalise(answer)
    if not words:
        return Verdict(Outcome.NO_ANSWER, None)
    countries = named_countries(words, prepared)
    said = next(iter(countries)) if len(countries) == 1 else None
    return Verdict(Outcome.CORRECT if said == expected else Outcome.WRONG, said)
