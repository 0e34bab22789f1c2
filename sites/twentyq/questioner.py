"""
The site's own questioner for "You think, the AI asks" (own mode): no model,
only the catalog.

Every thing keeps a likelihood instead of being crossed out, so one wrong
answer does not end the game: an answer that disagrees with a thing's
attribute multiplies its weight by ``MISTAKE`` (the chance that a visitor
answers wrongly), one that agrees by ``1 - MISTAKE``. "Sometimes" and "don't
know" say nothing. A thing guessed wrongly is out. The next question is the
unasked attribute that splits the remaining weight most evenly; the
questioner guesses when one thing holds ``SURE`` of the weight, when no
question is left, or on the last turn.
"""

from dataclasses import dataclass
from itertools import compress

MISTAKE = 0.05
SURE = 0.5


@dataclass(frozen=True)
class Move:
    """The questioner's next move: an attribute question, or a guess."""

    kind: str  # "question" or "guess"
    text: str
    attribute: str = ""  # the attribute key of a question
    thing: str = ""  # the thing's name for a guess


def weights(catalog, answers, wrong_guesses=()):
    """Return {thing name: weight} after these (attribute, answer) pairs."""
    return {
        thing.name: weight
        for thing, weight in zip(catalog.things, _weights(catalog, answers, wrong_guesses), strict=True)
    }


def _weights(catalog, answers, wrong_guesses):
    """Return the weight of each thing, in catalog order (0 for a wrong guess)."""
    out = [0.0 if thing.name in wrong_guesses else 1.0 for thing in catalog.things]
    for key, answer in answers:
        if answer not in ("yes", "no"):
            continue
        said_yes = answer == "yes"
        for index, value in enumerate(catalog.column(key)):
            out[index] *= (1 - MISTAKE) if value == said_yes else MISTAKE
    return out


def next_move(catalog, answers, wrong_guesses=(), turns_left=20):
    """Return the best Move for this game: a question that splits the candidates, or a guess."""
    table = _weights(catalog, answers, wrong_guesses)
    total = sum(table)
    if total == 0:
        # Every thing was guessed wrongly: only possible with a catalog smaller than the turns.
        return Move("guess", "Is it something the site does not know?", thing="")
    best = max(range(len(table)), key=table.__getitem__)
    thing = catalog.things[best]
    asked = {key for key, _answer in answers}
    question = _best_split(catalog, table, total, asked)
    if turns_left <= 1 or question is None or table[best] / total >= SURE:
        return Move("guess", f"Is it {thing.called()}?", thing=thing.name)
    return Move("question", question.question, attribute=question.key)


def _best_split(catalog, table, total, asked):
    """Return the unasked attribute whose yes-weight is nearest half the total, or None."""
    best, best_gap = None, None
    for attribute in catalog.attributes:
        if attribute.key in asked:
            continue
        yes = sum(compress(table, catalog.column(attribute.key)))  # the weights of the things that have it
        gap = abs(yes / total - 0.5)
        if gap < 0.5 and (best_gap is None or gap < best_gap):
            best, best_gap = attribute, gap
    return best
