"""The game's rules: only the pending move can be answered, once; the model's garbage changes nothing."""

import copy

import pytest

from sites.twentyq import catalog as catalog_module
from sites.twentyq.exceptions import BadInput, GameError, UnusableReply
from sites.twentyq.game import Game
from sites.twentyq.rules import LIMIT, PROMPT_SECONDS

CATALOG = catalog_module.load()


def unchanged(game, call, error=GameError):
    """Run call(game), expect ``error``, and check the game did not change; return the error."""
    before = copy.deepcopy(game.data)
    with pytest.raises(error) as raised:
        call(game)
    assert game.data == before
    return raised.value


def ai_game_with_pending_question():
    game = Game.new("ai-asks", CATALOG)
    game.own_move(CATALOG)
    assert game.data["pending"]["kind"] == "question"
    return game


def test_an_unknown_mode_is_refused():
    with pytest.raises(BadInput) as refused:
        Game.new("both", CATALOG)
    assert refused.value.code == "bad-mode"


def test_the_visitor_answers_the_pending_question_once():
    game = ai_game_with_pending_question()
    game.answer(1, "yes")
    assert game.history[0]["answer"] == "yes" and game.data["pending"] is None
    assert unchanged(game, lambda g: g.answer(1, "no")).code == "no-pending"


@pytest.mark.parametrize("answer", ["maybe", "YES", "", None, 1, ["yes"]])
def test_only_the_four_answers_are_taken(answer):
    game = ai_game_with_pending_question()
    assert unchanged(game, lambda g: g.answer(1, answer), BadInput).code == "bad-answer"


@pytest.mark.parametrize(
    "turn, code",
    [(2, "stale-turn"), (0, "stale-turn"), ("1", "bad-turn"), (True, "bad-turn"), (None, "bad-turn")],
)
def test_an_answer_for_another_turn_is_refused(turn, code):
    game = ai_game_with_pending_question()
    assert unchanged(game, lambda g: g.answer(turn, "yes")).code == code


def test_a_verdict_without_a_pending_guess_is_refused():
    game = ai_game_with_pending_question()
    assert unchanged(game, lambda g: g.verdict(1, True)).code == "no-pending"


def test_the_site_cannot_ask_again_before_the_visitor_answers():
    game = ai_game_with_pending_question()
    assert unchanged(game, lambda g: g.own_move(CATALOG)).code == "answer-first"
    assert unchanged(game, lambda g: g.begin_prompt(CATALOG)).code == "answer-first"


def test_the_ai_guesses_on_the_last_turn_and_the_visitor_wins_after_twenty():
    game = Game.new("ai-asks", CATALOG)
    for turn in range(1, LIMIT + 1):
        game.own_move(CATALOG)
        pending = game.data["pending"]
        if turn == LIMIT:
            assert pending["kind"] == "guess"
        if pending["kind"] == "guess":
            game.verdict(turn, False)
        else:
            game.answer(turn, "sometimes")
    assert game.public()["status"] == "over" and game.public()["winner"] == "visitor"
    assert unchanged(game, lambda g: g.own_move(CATALOG)).code == "game-over"


def test_a_right_guess_ends_the_game_for_the_ai():
    game = Game.new("ai-asks", CATALOG)
    game.data["pending"] = {"turn": 1, "kind": "guess", "text": "Is it a cat?", "by": "site", "thing": "cat"}
    game.verdict(1, True)
    assert (game.data["status"], game.data["winner"]) == ("over", "ai")


def test_a_model_move_becomes_the_pending_question():
    game = Game.new("ai-asks", CATALOG)
    prompt_id, turn, messages, params = game.begin_prompt(CATALOG, now=1000)
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    assert params == {"maxTokens": 60}
    game.apply_replies(prompt_id, turn, [("m1", "QUESTION: Is it alive?")], "extension", now=1001)
    assert game.data["pending"] == {
        "turn": 1,
        "kind": "question",
        "text": "Is it alive?",
        "by": "model",
        "way": "extension",
        "model": "m1",
    }


@pytest.mark.parametrize(
    "text, code",
    [
        ("", "model-empty"),
        ("<b>Is it big?</b>", "model-markup"),
        ("x" * 10_000, "model-too-long"),
        ("I give up", "model-not-a-move"),
    ],
)
def test_garbage_from_the_questioner_model_leaves_the_game_as_it_was(text, code):
    game = Game.new("ai-asks", CATALOG)
    prompt_id, turn, *_ = game.begin_prompt(CATALOG, now=1000)
    assert (
        unchanged(
            game,
            lambda g: g.apply_replies(prompt_id, turn, [("m1", text)], "builtin", now=1001),
            UnusableReply,
        ).code
        == code
    )


def test_a_reply_that_comes_late_or_for_an_old_prompt_is_refused():
    game = Game.new("ai-asks", CATALOG)
    old_id, turn, *_ = game.begin_prompt(CATALOG, now=1000)
    new_id, _, *_ = game.begin_prompt(CATALOG, now=1010)
    reply = [(None, "QUESTION: Is it alive?")]
    assert (
        unchanged(game, lambda g: g.apply_replies(old_id, turn, reply, "aiwallet", now=1011)).code
        == "stale-turn"
    )
    late = 1010 + PROMPT_SECONDS + 1
    assert (
        unchanged(game, lambda g: g.apply_replies(new_id, turn, reply, "aiwallet", now=late)).code == "late"
    )


def test_a_reply_after_the_site_asked_instead_is_refused():
    game = Game.new("ai-asks", CATALOG)
    prompt_id, turn, *_ = game.begin_prompt(CATALOG, now=1000)
    game.own_move(CATALOG)
    refused = unchanged(
        game, lambda g: g.apply_replies(prompt_id, turn, [(None, "QUESTION: Is it?")], "aiwallet", now=1001)
    )
    assert refused.code == "no-pending"


def test_the_secret_stays_hidden_until_the_game_is_over():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    assert "giraffe" not in str(game.public())
    assert game.guess(CATALOG, "Giraffes") is True
    assert game.public()["secret"] == {"name": "giraffe"} and game.public()["winner"] == "visitor"


def test_the_things_that_still_fit_narrow_with_each_answer_and_a_wrong_guess_and_never_name_one():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    everything = len(CATALOG.things)
    assert game.public(CATALOG)["candidates"] == {"left": everything, "of": everything}
    game.own_question(CATALOG, "animal")
    animals = sum(thing.attributes["animal"] for thing in CATALOG.things)
    assert game.public(CATALOG)["candidates"]["left"] == animals
    game.guess(CATALOG, "cat")
    assert game.public(CATALOG)["candidates"]["left"] == animals - 1
    assert "candidates" not in game.public()  # without the catalog: the game's own data only


def test_an_answer_against_the_catalog_narrows_to_the_things_that_fit_as_well_as_the_likeliest():
    game = Game.new("ai-asks", CATALOG)
    game.data["history"] = [
        {
            "turn": 1,
            "kind": "question",
            "text": "Is it alive?",
            "by": "site",
            "attribute": "alive",
            "answer": "yes",
        },
        {
            "turn": 2,
            "kind": "question",
            "text": "Is it a plant?",
            "by": "site",
            "attribute": "plant",
            "answer": "yes",
        },
    ]
    fit = [t for t in CATALOG.things if t.attributes["alive"] and t.attributes["plant"]]
    assert game.public(CATALOG)["candidates"]["left"] == len(fit)


def test_the_catalog_answers_its_own_questions_about_the_secret():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    game.own_question(CATALOG, "animal")
    game.own_question(CATALOG, "flies")
    assert [(e["text"], e["answer"], e["answeredBy"]) for e in game.history] == [
        ("Is it an animal?", "yes", "catalog"),
        ("Can it fly?", "no", "catalog"),
    ]
    assert unchanged(game, lambda g: g.own_question(CATALOG, "wings"), BadInput).code == "bad-attribute"


def test_a_second_model_that_disagrees_is_recorded_as_a_disagreement():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    prompt_id, turn, messages, params = game.begin_prompt(CATALOG, "Is it tall?", now=0)
    assert "giraffe" in messages[0]["content"] and messages[1] == {"role": "user", "content": "Is it tall?"}
    assert params["choices"] == ["yes", "no", "sometimes"]
    game.apply_replies(prompt_id, turn, [("m1", "Yes."), ("m2", "no")], "extension", now=1)
    entry = game.history[0]
    assert (entry["answer"], entry["model"], entry["check"]) == (
        "yes",
        "m1",
        {"model": "m2", "answer": "no", "agrees": False},
    )


def test_an_unusable_check_is_shown_as_its_problem_and_the_answer_stands():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    prompt_id, turn, *_ = game.begin_prompt(CATALOG, "Is it tall?", now=0)
    game.apply_replies(prompt_id, turn, [("m1", "yes"), ("m2", "<b>no</b>")], "extension", now=1)
    check = game.history[0]["check"]
    assert check["agrees"] is None and "HTML" in check["problem"]


@pytest.mark.parametrize("text", ["maybe", "", "<p>yes</p>", "yes " * 3000])
def test_an_answer_that_is_not_a_choice_records_nothing(text):
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    prompt_id, turn, *_ = game.begin_prompt(CATALOG, "Is it tall?", now=0)
    unchanged(
        game, lambda g: g.apply_replies(prompt_id, turn, [("m1", text)], "builtin", now=1), UnusableReply
    )
    assert game.public()["pending"]["text"] == "Is it tall?"


@pytest.mark.parametrize("question", ["", "   ", "x" * 201, None, 42])
def test_a_bad_question_is_refused(question):
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    assert unchanged(game, lambda g: g.begin_prompt(CATALOG, question), BadInput).code == "bad-question"


def test_a_wrong_guess_uses_a_turn_and_twenty_turns_end_the_game_for_the_site():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    for _ in range(LIMIT):
        assert game.guess(CATALOG, "a cat") is False
    assert game.public()["winner"] == "site" and game.public()["secret"] == {"name": "giraffe"}
    assert unchanged(game, lambda g: g.guess(CATALOG, "giraffe")).code == "game-over"


def test_moves_of_the_other_mode_are_refused():
    game = Game.new("site-thinks", CATALOG, secret="giraffe")
    assert unchanged(game, lambda g: g.answer(1, "yes")).code == "wrong-mode"
    assert unchanged(game, lambda g: g.own_move(CATALOG)).code == "wrong-mode"


def test_the_site_never_repeats_a_guess_the_model_made_wrongly():
    game = Game.new("ai-asks", CATALOG)
    prompt_id, turn, *_ = game.begin_prompt(CATALOG, now=0)
    game.apply_replies(prompt_id, turn, [("m1", "GUESS: cats")], "extension", now=1)
    game.verdict(1, False)
    cat = CATALOG.thing("cat")
    for key, value in list(cat.attributes.items())[: LIMIT - 2]:
        game.data["pending"] = {
            "turn": game.turn,
            "kind": "question",
            "text": "?",
            "by": "site",
            "attribute": key,
        }
        game.answer(game.turn, "yes" if value else "no")
    game.own_move(CATALOG)
    assert game.data["pending"]["kind"] == "guess" and game.data["pending"]["thing"] != "cat"
