"""
One visitor's game, kept in their session: the language they answer in, the
round, the score, the question being asked and how each judged round went (for
the result screen). The page only ever sends an answer's text; the expected
country stays here until the round is over.

The state is a plain dict (what the session stores); these functions take it
and return the new one, so they are tested without a request.
"""

import random

from django.utils.crypto import salted_hmac

from sites.geography import names, pictures, places, scoring
from sites.geography.exceptions import AnswerRefused, UnknownLanguage, UnknownPlace

SESSION_KEY = "geography"
ROUNDS = 10
#: The longest answer judged, in characters; a longer one is refused, not cut.
MAX_ANSWER_CHARS = 200

_random = random.SystemRandom()


def new_game(language="en", choose=_random.sample):
    """Return the state of a fresh game of ROUNDS questions in a language."""
    if language not in names.LANGUAGES:
        raise UnknownLanguage(language, names.LANGUAGES)
    keys = choose(sorted(places.all_places()), ROUNDS)
    return {"language": language, "round": 1, "score": 0, "questions": keys, "finished": False, "results": []}


def first_game(seed: str) -> dict:
    """Return the first game of a browser with this seed: always the same for the same seed.

    The questions come from an HMAC of the seed under the site's secret key, so the
    seed in the visitor's cookie does not tell which countries they are.
    """
    private = random.Random(salted_hmac("sites.geography.first_game", seed, algorithm="sha256").digest())
    return new_game(choose=private.sample)


def valid(state):
    """Return whether a session's state is one this code wrote (else start afresh)."""
    try:
        return (
            state["language"] in names.LANGUAGES
            and 1 <= state["round"] <= ROUNDS
            and 0 <= state["score"] <= ROUNDS
            and len(state["questions"]) == ROUNDS
            and all(places.get(key) for key in state["questions"])
            and isinstance(state["finished"], bool)
            # A game begun before results were kept has none: its result screen lists what it has.
            and _valid_results(state.get("results", []))
        )
    except (KeyError, TypeError, UnknownPlace):
        return False


def _valid_results(results):
    """Return whether a state's results are [[question key, bool right], ...], at most ROUNDS of them."""
    return (
        isinstance(results, list)
        and len(results) <= ROUNDS
        and all(
            isinstance(row, list) and len(row) == 2 and places.get(row[0]) and isinstance(row[1], bool)
            for row in results
        )
    )


def current_place(state):
    """Return the Place asked about now."""
    return places.get(state["questions"][state["round"] - 1])


def question(state):
    """Return the question asked now, in the game's language, or None when the game is over."""
    return None if state["finished"] else current_place(state).question(state["language"])


def with_language(state, language):
    """Return the state answering in another language (same question, same score)."""
    if language not in names.LANGUAGES:
        raise UnknownLanguage(language, names.LANGUAGES)
    return {**state, "language": language}


def answer(state, text):
    """Judge an answer to the current question; return (new state, result dict for the page)."""
    if state["finished"]:
        raise AnswerRefused("game-over", "This game is over; start a new one.")
    if not isinstance(text, str):
        raise AnswerRefused("answer-invalid", "Send the answer as text.")
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerRefused("answer-too-long", f"An answer is at most {MAX_ANSWER_CHARS} characters.")
    language = state["language"]
    place = current_place(state)
    verdict = scoring.judge(text, place.country, prepared_names(language))
    result = {
        "verdict": verdict.outcome.value,
        "answer": text,
        "said": names.display_name(verdict.said, language) if verdict.said else None,
    }
    if verdict.outcome is scoring.Outcome.NO_ANSWER:
        return state, {**result, **progress(state)}  # nothing heard: the same question again
    right = verdict.outcome is scoring.Outcome.CORRECT
    results = [*state.get("results", []), [place.key, right]]
    state = {**state, "score": state["score"] + right, "results": results}
    if state["round"] == ROUNDS:
        state["finished"] = True
    else:
        state["round"] += 1
    result["expected"] = names.display_name(place.country, language)
    result["country"] = place.country  # the round is over: the page may show the place
    return state, {**result, **progress(state)}


def message(result, heard=False):
    """Return the sentence the page shows for a judged answer, spoken to as it came: typed, or heard by
    the visitor's AI (built from names, never from the answer's text)."""
    if result["verdict"] == scoring.Outcome.NO_ANSWER.value:
        return (
            "I did not catch a country's name. Try again." if heard else "Type a country's name. Try again."
        )
    if result["verdict"] == scoring.Outcome.CORRECT.value:
        return f"Right: {result['expected']}!"
    if result["said"]:
        return f"Not quite: you {'said' if heard else 'typed'} {result['said']}; the answer is {result['expected']}."
    if heard:
        return f"Not quite: I did not hear one country's name; the answer is {result['expected']}."
    return f"Not quite: that is not one country's name I know; the answer is {result['expected']}."


def progress(state):
    """Return what the page shows of a game: round, score, the question (never its answer) with its
    picture, and the rounds judged so far (right or not); once it is over, each round with its answer."""
    results = state.get("results", [])
    shown = {
        "round": state["round"],
        "rounds": ROUNDS,
        "score": state["score"],
        "finished": state["finished"],
        "question": question(state),
        "clue": None if state["finished"] else pictures.clue_url(current_place(state).country),
        "language": state["language"],
        "track": [right for _, right in results],
    }
    if state["finished"]:
        shown["summary"] = summary(results, state["language"])
        shown["share"] = share_text(state["score"], [right for _, right in results])
    return shown


def share_text(score, track):
    """Return the result a visitor may copy to share: the score and a square per round, no answers."""
    return f"Voice geography: {score}/{ROUNDS}\n" + "".join("🟩" if right else "🟥" for right in track)


def summary(results, language):
    """Return each judged round of a finished game: its question, the country and whether it was right."""
    rounds = []
    for key, right in results:
        place = places.get(key)
        rounds.append(
            {
                "asked": place.question(language),
                "country": place.country,
                "name": names.display_name(place.country, language),
                "right": right,
            }
        )
    return rounds


_prepared = {}


def prepared_names(language):
    """Return the scoring table of a language, prepared once per process."""
    if language not in _prepared:
        _prepared[language] = scoring.prepare(names.accepted_names(language))
    return _prepared[language]
