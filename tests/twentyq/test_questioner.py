"""The site's own questioner: a good game with no AI, and forgiving of a wrong answer."""

import random
import statistics

from sites.twentyq import catalog as catalog_module
from sites.twentyq import questioner
from sites.twentyq.rules import LIMIT

CATALOG = catalog_module.load()


def play(thing, *, wrong_at=None, shrug_at=()):
    """Answer the questioner about ``thing`` (truthfully, but at turn ``wrong_at``); return the winning turn or None."""
    answers, wrong = [], set()
    for turn in range(1, LIMIT + 1):
        move = questioner.next_move(CATALOG, answers, wrong, LIMIT - turn + 1)
        if move.kind == "guess":
            if move.thing == thing.name:
                return turn
            wrong.add(move.thing)
            continue
        truth = thing.attributes[move.attribute]
        if turn == wrong_at:
            truth = not truth
        answers.append((move.attribute, "unknown" if turn in shrug_at else ("yes" if truth else "no")))
    return None


def test_answered_truthfully_the_questioner_finds_every_thing_within_twenty_questions():
    turns = {thing.name: play(thing) for thing in CATALOG.things}
    assert [name for name, turn in turns.items() if turn is None] == []
    average = statistics.mean(turns.values())
    print(f"own questioner: {len(turns)} things, average {average:.2f} turns, most {max(turns.values())}")
    assert average <= 12


def test_one_wrong_answer_early_does_not_end_the_game_for_most_things():
    chooser = random.Random(10)
    found = [play(thing, wrong_at=chooser.randint(1, 6)) for thing in CATALOG.things]
    share = sum(turn is not None for turn in found) / len(found)
    print(f"own questioner with one wrong answer in the first six: {share:.0%} found within {LIMIT}")
    assert share >= 0.85


def test_dont_know_answers_cost_turns_but_eliminate_nothing():
    giraffe = CATALOG.thing("giraffe")
    assert play(giraffe, shrug_at={1, 2}) is not None
    table = questioner.weights(CATALOG, [("animal", "unknown"), ("big", "sometimes")])
    assert set(table.values()) == {1.0}


def test_a_wrong_guess_is_never_guessed_again():
    table = questioner.weights(CATALOG, [], wrong_guesses={"cat"})
    assert table["cat"] == 0
    answers = [(key, "yes" if value else "no") for key, value in CATALOG.thing("cat").attributes.items()]
    move = questioner.next_move(CATALOG, answers, {"cat"}, turns_left=1)
    assert move.kind == "guess" and move.thing != "cat"


def test_the_last_turn_is_always_a_guess():
    move = questioner.next_move(CATALOG, [], (), turns_left=1)
    assert move.kind == "guess" and move.text.startswith("Is it ")


def test_the_first_question_splits_the_catalog_roughly_in_half():
    move = questioner.next_move(CATALOG, [], (), turns_left=LIMIT)
    yes = sum(CATALOG.column(move.attribute))
    assert move.kind == "question"
    assert 0.3 < yes / len(CATALOG.things) < 0.7
