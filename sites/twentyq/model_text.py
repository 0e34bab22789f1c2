"""
Reading a model's raw text. Everything a model says is something the visitor
could have typed: it is parsed into a move or a choice, or refused with a
reason; it is never trusted further, and never treated as markup.
"""

import re
from dataclasses import dataclass

from sites.twentyq.exceptions import UnusableReply

MAX_REPLY_CHARS = 2000
MAX_QUESTION_CHARS = 200
MAX_GUESS_CHARS = 80

_MARKUP = re.compile(r"<\s*/?\s*[a-zA-Z!?][^>]*>|&[a-zA-Z]+;|&#")
_MOVE = re.compile(r"^(question|guess)\s*[:\-]\s*(.+)$", re.IGNORECASE)
# Bidirectional overrides and other format characters could make shown text
# read differently from what it is; control characters have no place in a line.
_INVISIBLE = re.compile(r"[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_DECORATION = " \t*_`\"'“”‘’"


@dataclass(frozen=True)
class Move:
    kind: str  # "question" or "guess"
    text: str


def parse_move(text, *, must_guess=False):
    """Return the Move in a questioner model's reply ("QUESTION: ..." or "GUESS: ...")."""
    lines = _lines(text)
    for line in lines:
        found = _MOVE.match(line)
        if found:
            return _move(found.group(1).lower(), found.group(2), must_guess)
    if len(lines) == 1 and lines[0].endswith("?"):
        return _move("question", lines[0], must_guess)
    raise UnusableReply(
        "model-not-a-move",
        "The AI's reply was neither a question nor a guess, so it was not used. Try again, or let the site ask.",
    )


def _move(kind, text, must_guess):
    text = text.strip(_DECORATION)
    if kind == "question":
        if must_guess:
            raise UnusableReply(
                "model-must-guess",
                "The AI asked another question on its last turn instead of guessing; try again.",
            )
        if len(text) > MAX_QUESTION_CHARS:
            raise UnusableReply(
                "model-too-long", f"The AI's question was over {MAX_QUESTION_CHARS} characters."
            )
        if not text:
            raise UnusableReply("model-empty", "The AI's question was empty.")
        return Move("question", text if text.endswith("?") else text + "?")
    text = re.sub(r"^(?:is it|it is|it's)\s+", "", text.rstrip("?.! "), flags=re.IGNORECASE).strip(
        _DECORATION
    )
    if len(text) > MAX_GUESS_CHARS:
        raise UnusableReply("model-too-long", f"The AI's guess was over {MAX_GUESS_CHARS} characters.")
    if not text:
        raise UnusableReply("model-empty", "The AI's guess was empty.")
    return Move("guess", text)


def parse_choice(text, choices):
    """Return the one choice a model's reply gives ("Yes." and "yes, it is" count; "yes or no" does not)."""
    lines = _lines(text)
    words = re.findall(r"[a-z]+", " ".join(lines).lower())
    said = {word for word in words if word in choices}
    if words and words[0] in choices and said == {words[0]} and len(lines) == 1 and len(lines[0]) <= 80:
        return words[0]
    raise UnusableReply(
        "model-not-a-choice",
        "The AI did not answer with one of " + ", ".join(choices) + ", so its answer was not used.",
    )


def _lines(text):
    """Return the non-empty, cleaned lines of a reply, or raise for an empty, long or markup reply."""
    if not isinstance(text, str) or not text.strip():
        raise UnusableReply("model-empty", "The AI gave no answer. Try again, or play on without it.")
    if len(text) > MAX_REPLY_CHARS:
        raise UnusableReply(
            "model-too-long", f"The AI's reply was {len(text):,} characters long; a move is one short line."
        )
    if _MARKUP.search(text):
        raise UnusableReply("model-markup", "The AI's reply contained HTML, so it was not used.")
    lines = [_INVISIBLE.sub("", line).strip(_DECORATION) for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise UnusableReply("model-empty", "The AI gave no answer. Try again, or play on without it.")
    return lines
