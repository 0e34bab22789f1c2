"""
Twenty Questions' scripted player, for the relay of the `?testwallet=1` stand-ins
(testwallet.relay) when no model is named. As the host it answers about the
secret from the catalog's attributes; as the questioner it asks the catalog's
attribute questions that split the things still possible, and guesses when one
is left.
"""

import re

from sites.twentyq import catalog, prompts
from testwallet.relay.scripted import Chat, Completion, completion, text_of

_SECRET = re.compile(r"The secret is: (?P<name>.+?) \(")


def answer(chat: Chat) -> Completion | None:
    """Answer as the host when the prompt names a secret, as the questioner when it is the asker's."""
    if (found := _SECRET.search(chat.system)) and (secret := catalog.load().thing(found["name"])):
        return completion(_host(secret, chat.last_user))
    if chat.system.startswith(prompts.ASKER[:40]):
        return completion(_questioner(chat))
    return None


def _host(secret: catalog.Thing, question: str) -> str:
    """Answer yes or no about the secret from its attributes; 'sometimes' when they do not say."""
    asked = catalog.normalise(question)
    for attribute in catalog.load().attributes:
        if catalog.normalise(attribute.question) == asked:
            return "yes" if secret.attributes[attribute.key] else "no"
    guessed = catalog.load().find(question)
    if guessed is not None:
        return "yes" if guessed is secret else "no"
    return "sometimes"  # the catalog does not know: the one choice that claims nothing


def _questioner(chat: Chat) -> str:
    """Ask the attribute question that best splits what is still possible; guess when one is left."""
    messages = chat.messages
    known = catalog.load()
    questions = {catalog.normalise(a.question): a for a in known.attributes}
    possible = list(known.things)
    wrong = set()
    asked = set()
    # Each message with the one after it (not strict: the second list is one shorter).
    for said, reply in zip(messages, messages[1:], strict=False):
        if said.get("role") != "assistant":
            continue
        move, answered = text_of(said), catalog.normalise(text_of(reply).split(".")[0])
        if move.startswith("GUESS:") and answered.startswith("no"):
            wrong.add(catalog.normalise(move[6:]))
        elif move.startswith("QUESTION:") and (attribute := questions.get(catalog.normalise(move[9:]))):
            asked.add(attribute.key)
            if answered in ("yes", "no"):
                possible = [t for t in possible if t.attributes[attribute.key] == (answered == "yes")]
    possible = [t for t in possible if catalog.normalise(t.name) not in wrong] or [
        t for t in known.things if catalog.normalise(t.name) not in wrong
    ]
    last_turn = "your last turn" in chat.last_user
    splits = [
        (abs(2 * sum(t.attributes[a.key] for t in possible) - len(possible)), a)
        for a in known.attributes
        if a.key not in asked
    ]
    useful = [(score, a) for score, a in splits if score < len(possible)]
    if len(possible) == 1 or last_turn or not useful:
        return f"GUESS: {possible[0].called()}"
    return f"QUESTION: {min(useful, key=lambda pair: pair[0])[1].question}"
