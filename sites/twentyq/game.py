"""
One game of Twenty Questions, kept in the visitor's session as plain JSON.

Every change goes through a method here that checks it against the state
first and raises a ``GameError`` (changing nothing) when it does not fit: the
page can only answer the question that is pending, once, with one of the four
answers; it cannot add questions, answers or a win of its own.

Two outstanding things are kept apart:

- ``prompt``: a request for a model's move (its id, turn, time, and in "the
  site thinks" the visitor's question), answered by ``apply_replies``;
- ``pending`` ("the AI asks"): the AI's question or guess, answered by the
  visitor with ``answer`` or ``verdict``.
"""

import secrets
import time

from sites.twentyq import model_text, prompts, questioner
from sites.twentyq.exceptions import BadInput, GameError, UnusableReply
from sites.twentyq.rules import ANSWERS, CHOICES, LIMIT, MODES, PROMPT_SECONDS

MAX_QUESTION_CHARS = model_text.MAX_QUESTION_CHARS
MAX_GUESS_CHARS = model_text.MAX_GUESS_CHARS

_pick = secrets.SystemRandom().choice


class Game:
    """A game's state (``data``, JSON for the session) and the moves that change it."""

    def __init__(self, data):
        self.data = data

    @classmethod
    def new(cls, mode, catalog, secret=None):
        """Start a game; in "the site thinks" the secret is drawn from the catalog."""
        if mode not in MODES:
            raise BadInput("bad-mode", "Choose a mode: ai-asks (you think, the AI asks) or site-thinks.")
        if mode == "site-thinks":
            secret = secret or _pick(catalog.things).name
        return cls(
            {
                "id": secrets.token_urlsafe(9),
                "mode": mode,
                "status": "playing",
                "winner": None,
                "history": [],
                "pending": None,
                "prompt": None,
                "secret": secret if mode == "site-thinks" else None,
            }
        )

    # -- reading ---------------------------------------------------------------

    @property
    def mode(self):
        return self.data["mode"]

    @property
    def history(self):
        return self.data["history"]

    @property
    def turn(self):
        """Return the number of the next turn."""
        return len(self.history) + 1

    @property
    def turns_left(self):
        return LIMIT - len(self.history)

    @property
    def must_guess(self):
        return self.mode == "ai-asks" and self.turns_left == 1

    def candidates(self, catalog):
        """Return how many of the catalog's things fit the yes/no answers to its own questions so far
        as well as the likeliest one does (questioner.py's weights): how close the game is."""
        answers = [
            (e["attribute"], e["answer"])
            for e in self.history
            if e["kind"] == "question" and e.get("attribute")
        ]
        table = questioner.weights(catalog, answers, self._wrong_guesses(catalog)).values()
        best = max(table, default=0.0)
        return sum(1 for weight in table if best and weight >= best / 2)

    def public(self, catalog=None):
        """Return what the page may know: everything but the secret, until the game is over; with the
        catalog, how many of its things still fit (never which)."""
        data = self.data
        over = data["status"] == "over"
        pending = data["pending"]
        if self.mode == "site-thinks" and data["prompt"]:
            prompt = data["prompt"]
            pending = {
                "turn": prompt["turn"],
                "kind": "question",
                "text": prompt["question"],
                "by": "visitor",
            }
        return {
            "id": data["id"],
            "mode": self.mode,
            "status": data["status"],
            "winner": data["winner"],
            "limit": LIMIT,
            "turnsUsed": len(self.history),
            "turnsLeft": self.turns_left,
            "history": [dict(entry) for entry in self.history],
            "pending": dict(pending) if pending else None,
            "secret": {"name": data["secret"]} if over and data["secret"] else None,
            "mustGuess": self.must_guess,
            **(
                {"candidates": {"left": self.candidates(catalog), "of": len(catalog.things)}}
                if catalog
                else {}
            ),
        }

    # -- checks ----------------------------------------------------------------

    def _playing(self, mode):
        if self.data["status"] != "playing":
            raise GameError("game-over", "This game is over; start a new one.")
        if self.mode != mode:
            raise GameError("wrong-mode", "That move belongs to the other mode of the game.")

    def _check_turn(self, turn, expected):
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise BadInput("bad-turn", "Say which turn this is for (a whole number).")
        if turn != expected:
            raise GameError("stale-turn", "That was for another turn; the game has moved on.")

    def _finish(self, winner):
        self.data.update(status="over", winner=winner, pending=None, prompt=None)

    # -- "You think, the AI asks" ----------------------------------------------

    def own_move(self, catalog):
        """Let the site's own questioner ask its next question or guess."""
        self._playing("ai-asks")
        self._no_pending()
        answers = [
            (e["attribute"], e["answer"])
            for e in self.history
            if e["kind"] == "question" and e.get("attribute")
        ]
        move = questioner.next_move(catalog, answers, self._wrong_guesses(catalog), self.turns_left)
        pending = {"turn": self.turn, "kind": move.kind, "text": move.text, "by": "site"}
        if move.attribute:
            pending["attribute"] = move.attribute
        if move.thing:
            pending["thing"] = move.thing
        self.data.update(pending=pending, prompt=None)

    def _wrong_guesses(self, catalog):
        wrong = set()
        for entry in self.history:
            if entry["kind"] == "guess" and entry["answer"] == "wrong":
                thing = catalog.thing(entry.get("thing", "")) or catalog.find(entry["text"])
                if thing is not None:
                    wrong.add(thing.name)
        return wrong

    def _no_pending(self):
        if self.data["pending"]:
            raise GameError(
                "answer-first", "Answer the AI's question (or say whether its guess is right) first."
            )

    def _pending_move(self, kind, turn, missing):
        """Return the AI's pending question or guess that this turn's move settles; raise GameError if there is none."""
        self._playing("ai-asks")
        pending = self.data["pending"]
        if not pending or pending["kind"] != kind:
            raise GameError("no-pending", missing)
        self._check_turn(turn, pending["turn"])
        return pending

    def answer(self, turn, answer):
        """Record the visitor's answer to the AI's pending question."""
        pending = self._pending_move("question", turn, "There is no question waiting for an answer.")
        if not isinstance(answer, str) or answer not in ANSWERS:
            raise BadInput("bad-answer", "Answer with yes, no, sometimes or unknown.")
        self.history.append({**pending, "answer": answer})
        self.data["pending"] = None
        if self.turns_left == 0:
            self._finish("visitor")

    def verdict(self, turn, correct):
        """Record whether the AI's pending guess is right."""
        pending = self._pending_move("guess", turn, "There is no guess waiting for your verdict.")
        if not isinstance(correct, bool):
            raise BadInput("bad-verdict", "Say whether the guess is right: true or false.")
        self.history.append({**pending, "answer": "right" if correct else "wrong"})
        self.data["pending"] = None
        if correct:
            self._finish("ai")
        elif self.turns_left == 0:
            self._finish("visitor")

    # -- "The site thinks, you ask" --------------------------------------------

    def own_question(self, catalog, key):
        """Answer one of the catalog's attribute questions about the secret."""
        self._playing("site-thinks")
        attribute = catalog.attribute(key)
        if attribute is None:
            raise BadInput("bad-attribute", "Pick one of the site's questions from the list.")
        value = catalog.thing(self.data["secret"]).attributes[attribute.key]
        self._record_question(
            {
                "text": attribute.question,
                "answeredBy": "catalog",
                "attribute": key,
                "answer": "yes" if value else "no",
            }
        )

    def _record_question(self, fields):
        self.history.append({"turn": self.turn, "kind": "question", "by": "visitor", "check": None, **fields})
        self.data["prompt"] = None
        if self.turns_left == 0:
            self._finish("site")

    def guess(self, catalog, text):
        """Compare the visitor's guess with the secret (names, aliases, plurals); return True when right."""
        self._playing("site-thinks")
        text = _visitor_text(text, MAX_GUESS_CHARS, "bad-guess", "Type a guess of 1 to 80 characters.")
        found = catalog.find(text)
        correct = found is not None and found.name == self.data["secret"]
        self.history.append(
            {
                "turn": self.turn,
                "kind": "guess",
                "text": text,
                "by": "visitor",
                "answeredBy": "site",
                "answer": "right" if correct else "wrong",
            }
        )
        self.data["prompt"] = None
        if correct:
            self._finish("visitor")
        elif self.turns_left == 0:
            self._finish("site")
        return correct

    # -- a model's move --------------------------------------------------------

    def begin_prompt(self, catalog, question=None, *, now=None):
        """Open a request for a model's move; return (prompt id, turn, messages, params)."""
        if self.mode == "ai-asks":
            self._playing("ai-asks")
            self._no_pending()
            messages, params = prompts.asker(self.history, self.turn, self.must_guess)
            question = None
        else:
            self._playing("site-thinks")
            question = _visitor_text(
                question, MAX_QUESTION_CHARS, "bad-question", "Type a question of 1 to 200 characters."
            )
            messages, params = prompts.host(catalog.thing(self.data["secret"]), question)
        prompt = {
            "id": secrets.token_urlsafe(9),
            "turn": self.turn,
            "at": time.time() if now is None else now,
        }
        if question is not None:
            prompt["question"] = question
        self.data["prompt"] = prompt
        return prompt["id"], prompt["turn"], messages, params

    def apply_replies(self, prompt_id, turn, replies_, way, *, now=None):
        """Record a model's move from its raw text: [(model code or None, text)], the first is the answer."""
        self._playing(self.mode)
        prompt = self.data["prompt"]
        if not prompt:
            raise GameError("no-pending", "No AI move was asked for; ask again.")
        if not isinstance(prompt_id, str):
            raise BadInput("bad-prompt-id", "Send the promptId that the prompt's answer gave.")
        self._check_turn(turn, prompt["turn"])
        if prompt_id != prompt["id"]:
            raise GameError("stale-turn", "That reply was for an earlier request; the game has moved on.")
        if (time.time() if now is None else now) - prompt["at"] > PROMPT_SECONDS:
            raise GameError(
                "late", f"The AI's reply came more than {PROMPT_SECONDS} seconds late; ask again."
            )
        (model, text), *checks = replies_
        if self.mode == "ai-asks":
            move = model_text.parse_move(text, must_guess=self.must_guess)
            pending = {
                "turn": prompt["turn"],
                "kind": move.kind,
                "text": move.text,
                "by": "model",
                "way": way,
            }
            if model:
                pending["model"] = model
            self.data.update(pending=pending, prompt=None)
            return
        answer = model_text.parse_choice(text, CHOICES)
        fields = {
            "text": prompt["question"],
            "answeredBy": "model",
            "way": way,
            "answer": answer,
            "check": None,
        }
        if model:
            fields["model"] = model
        for check_model, check_text in checks[:1]:
            fields["check"] = _check(check_model, check_text, answer)
        self._record_question(fields)


def _check(model, text, answer):
    """Return the second model's verdict on an answer: its own answer and whether they agree."""
    try:
        own = model_text.parse_choice(text, CHOICES)
    except UnusableReply as exc:
        return {"model": model, "answer": None, "agrees": None, "problem": exc.message}
    return {"model": model, "answer": own, "agrees": own == answer}


def _visitor_text(text, most, code, message):
    if not isinstance(text, str) or not text.strip() or len(text.strip()) > most:
        raise BadInput(code, message)
    return " ".join(text.split())
