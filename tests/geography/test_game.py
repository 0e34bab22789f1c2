"""One visitor's game state (sites/geography/game.py), without a request."""

import re

import pytest

from sites.geography import game, pictures, places
from sites.geography.exceptions import AnswerRefused


def a_game(language="en", keys=None):
    keys = (
        keys
        or ["capital:PE", "landmark:FR:the Eiffel Tower"] + sorted(places.all_places())[: game.ROUNDS - 2]
    )
    return game.new_game(language, choose=lambda population, k: keys[:k])


def test_a_new_game_asks_its_first_question_in_the_chosen_language():
    state = a_game("ru")
    assert game.question(state) == "Столица какой страны — Лима?"
    assert game.progress(state) == {
        "round": 1,
        "rounds": game.ROUNDS,
        "score": 0,
        "finished": False,
        "question": "Столица какой страны — Лима?",
        "clue": pictures.clue_url("PE"),
        "language": "ru",
        "track": [],
    }


def test_a_right_answer_scores_one_and_moves_on():
    state, result = game.answer(a_game(), "Peru")
    assert result["verdict"] == "correct" and result["expected"] == "Peru"
    assert (state["round"], state["score"]) == (2, 1)
    assert result["question"] == "In which country is the Eiffel Tower?"
    assert game.message(result) == "Right: Peru!"


def test_a_wrong_answer_scores_nothing_and_reveals_the_answer():
    state, result = game.answer(a_game("sk"), "Čile")
    assert result["verdict"] == "wrong"
    assert result["said"] == "Čile" and result["expected"] == "Peru"
    assert (state["round"], state["score"]) == (2, 0)


def test_a_wrong_answer_is_spoken_to_as_it_came_typed_or_heard():
    _, nowhere = game.answer(a_game(), "Atlantis")
    assert game.message(nowhere) == "Not quite: that is not one country's name I know; the answer is Peru."
    assert game.message(nowhere, heard=True) == (
        "Not quite: I did not hear one country's name; the answer is Peru."
    )
    _, chile = game.answer(a_game(), "Chile")
    assert game.message(chile) == "Not quite: you typed Chile; the answer is Peru."
    assert game.message(chile, heard=True) == "Not quite: you said Chile; the answer is Peru."
    _, empty = game.answer(a_game(), "   ")
    assert game.message(empty) == "Type a country's name. Try again."
    assert game.message(empty, heard=True) == "I did not catch a country's name. Try again."


def test_no_answer_keeps_the_same_question():
    before = a_game()
    state, result = game.answer(before, "   ")
    assert result["verdict"] == "no-answer" and "expected" not in result
    assert state == before


def test_the_country_is_named_to_the_page_only_once_its_round_is_judged():
    state = a_game()
    assert "PE" not in repr(game.progress(state))
    # The question's own picture is named by a digest of the drawing, never by the country.
    assert re.search(r"/geography/clues/[0-9a-f]{12}\.svg$", game.progress(state)["clue"])
    _, result = game.answer(state, "Chile")
    assert result["country"] == "PE"


def test_the_track_marks_each_judged_round_right_or_not():
    state, _ = game.answer(a_game(), "Peru")
    state, _ = game.answer(state, "Italy")
    state, _ = game.answer(state, "  ")  # nothing heard: no round judged
    assert game.progress(state)["track"] == [True, False]


def test_a_finished_game_lists_each_round_with_its_answer_for_the_result_screen():
    state = a_game()
    for _ in range(game.ROUNDS):
        state, result = game.answer(state, "Peru")
    summary = result["summary"]
    assert result["share"] == "Voice geography: 1/10\n🟩" + "🟥" * (game.ROUNDS - 1)
    assert len(summary) == game.ROUNDS and result["track"] == [row["right"] for row in summary]
    assert summary[0] == {
        "asked": "Which country has the capital Lima?",
        "country": "PE",
        "name": "Peru",
        "right": True,
    }
    assert summary[1] == {
        "asked": "In which country is the Eiffel Tower?",
        "country": "FR",
        "name": "France",
        "right": False,
    }


def test_a_game_begun_before_results_were_kept_stays_valid_and_lists_what_it_has():
    state = a_game()
    del state["results"]
    assert game.valid(state)
    state, _ = game.answer(state, "Peru")
    assert game.progress(state)["track"] == [True]


def test_the_game_ends_after_the_last_round_and_refuses_more_answers():
    state = a_game()
    for _ in range(game.ROUNDS):
        state, result = game.answer(state, "Peru")
    assert result["finished"] and result["question"] is None
    assert state["round"] == game.ROUNDS
    with pytest.raises(AnswerRefused, match="over"):
        game.answer(state, "Peru")


def test_an_overlong_answer_is_refused_and_changes_nothing():
    state = a_game()
    with pytest.raises(AnswerRefused) as refused:
        game.answer(state, "Peru " * 100)
    assert refused.value.code == "answer-too-long"
    assert state == a_game()


def test_changing_the_language_keeps_the_question_and_score():
    state, _ = game.answer(a_game(), "Peru")
    switched = game.with_language(state, "sk")
    assert game.question(switched) == "V ktorej krajine je Eiffelova veža?"
    assert switched["score"] == 1


@pytest.mark.parametrize(
    "state",
    [
        None,
        {},
        {"language": "de", "round": 1, "score": 0, "questions": ["capital:PE"] * 10, "finished": False},
        {"language": "en", "round": 1, "score": 11, "questions": ["capital:PE"] * 10, "finished": False},
        {"language": "en", "round": 1, "score": 0, "questions": ["capital:XX"] * 10, "finished": False},
        {
            "language": "en",
            "round": 1,
            "score": 0,
            "questions": ["capital:PE"] * 10,
            "finished": False,
            "results": [["capital:XX", True]],
        },
        {
            "language": "en",
            "round": 1,
            "score": 0,
            "questions": ["capital:PE"] * 10,
            "finished": False,
            "results": [["capital:PE", "yes"]],
        },
    ],
)
def test_a_state_this_code_did_not_write_is_not_valid(state):
    assert not game.valid(state)
