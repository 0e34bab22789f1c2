"""Reading a model's raw text: a move or a choice, or a refusal that says why."""

import pytest

from sites.twentyq.exceptions import UnusableReply
from sites.twentyq.model_text import Move, parse_choice, parse_move

CHOICES = ("yes", "no", "sometimes")


@pytest.mark.parametrize(
    "text, move",
    [
        ("QUESTION: Is it alive?", Move("question", "Is it alive?")),
        ("question - is it bigger than a car", Move("question", "is it bigger than a car?")),
        ("**QUESTION:** Is it a place?", Move("question", "Is it a place?")),
        ("Let me think.\nQUESTION: Does it fly?", Move("question", "Does it fly?")),
        ("GUESS: a giraffe", Move("guess", "a giraffe")),
        ("Guess: Is it a giraffe?", Move("guess", "a giraffe")),
        ("Is it an animal?", Move("question", "Is it an animal?")),
        ("QUESTION: Is it \u202eevil\u202c?", Move("question", "Is it evil?")),
    ],
)
def test_a_question_or_a_guess_is_read_from_the_reply(text, move):
    assert parse_move(text) == move


@pytest.mark.parametrize(
    "text, code",
    [
        ("", "model-empty"),
        ("   \n\t ", "model-empty"),
        (None, "model-empty"),
        ("x" * 10_000, "model-too-long"),
        ("QUESTION: " + "Is it big? " * 30, "model-too-long"),
        ("GUESS: " + "very " * 30 + "big thing", "model-too-long"),
        ("QUESTION: Is it <b>big</b>?", "model-markup"),
        ("<script>alert(1)</script>", "model-markup"),
        ("QUESTION: Is it &lt;big&gt;?", "model-markup"),
        ("I think you are thinking of something nice.", "model-not-a-move"),
        ("Sure! Here is a question.\nIs it alive?", "model-not-a-move"),
        ("QUESTION:   ", "model-not-a-move"),
    ],
)
def test_an_unusable_reply_is_refused_with_its_reason(text, code):
    with pytest.raises(UnusableReply) as refused:
        parse_move(text)
    assert refused.value.code == code
    assert refused.value.message


def test_a_question_on_the_last_turn_is_refused_but_a_guess_is_taken():
    with pytest.raises(UnusableReply) as refused:
        parse_move("QUESTION: Is it alive?", must_guess=True)
    assert refused.value.code == "model-must-guess"
    assert parse_move("GUESS: a cat", must_guess=True) == Move("guess", "a cat")


def test_a_comparison_sign_is_not_markup():
    assert parse_move("QUESTION: Is it < 1 metre long?") == Move("question", "Is it < 1 metre long?")


@pytest.mark.parametrize(
    "text, choice",
    [
        ("yes", "yes"),
        ("Yes.", "yes"),
        (" NO ", "no"),
        ("Sometimes!", "sometimes"),
        ("Yes, it is.", "yes"),
        ('"no"', "no"),
    ],
)
def test_a_choice_is_read_from_the_reply(text, choice):
    assert parse_choice(text, CHOICES) == choice


@pytest.mark.parametrize(
    "text, code",
    [
        ("maybe", "model-not-a-choice"),
        ("yes or no", "model-not-a-choice"),
        ("Definitely yes", "model-not-a-choice"),
        ("yes\nno", "model-not-a-choice"),
        ("Yes, " + "because " * 20, "model-not-a-choice"),
        ("<i>yes</i>", "model-markup"),
        ("", "model-empty"),
        ("yes " * 5000, "model-too-long"),
    ],
)
def test_a_reply_that_is_not_exactly_one_choice_is_refused(text, code):
    with pytest.raises(UnusableReply) as refused:
        parse_choice(text, CHOICES)
    assert refused.value.code == code
