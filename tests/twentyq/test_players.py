"""
Twenty Questions' scripted player (sites/twentyq/players.py), as the relay finds it:
an honest host, a fair questioner.
"""

import json

import pytest

from sites.twentyq import catalog, prompts
from testwallet.relay import scripted
from testwallet.relay.apps import installed_players


def said(body):
    message = scripted.answer(body, installed_players())["choices"][0]["message"]
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls", [])
    ]
    return message["content"], calls


@pytest.mark.parametrize("thing", catalog.load().things[::7], ids=lambda thing: thing.name)
def test_host_answers_every_catalog_question_truly(thing):
    for attribute in catalog.load().attributes:
        messages, _params = prompts.host(thing, attribute.question)
        assert said({"messages": messages})[0] == ("yes" if thing.attributes[attribute.key] else "no")


def test_host_says_sometimes_to_a_question_the_catalog_cannot_answer():
    messages, _params = prompts.host(catalog.load().thing("dog"), "Is it purple on Tuesdays?")
    assert said({"messages": messages})[0] == "sometimes"


@pytest.mark.parametrize("thing", catalog.load().things[::5], ids=lambda thing: thing.name)
def test_questioner_finds_each_thing_a_truthful_visitor_thinks_of(thing):
    history = []
    for turn in range(1, 21):
        messages, _params = prompts.asker(history, turn, must_guess=turn == 20)
        kind, _, text = said({"messages": messages})[0].partition(": ")
        if kind == "GUESS":
            right = catalog.load().find(text) is thing
            history.append(
                {"turn": turn, "kind": "guess", "text": text, "answer": "right" if right else "wrong"}
            )
            if right:
                return
        else:
            key = next(a.key for a in catalog.load().attributes if a.question == text)
            answer = "yes" if thing.attributes[key] else "no"
            history.append({"turn": turn, "kind": "question", "text": text, "answer": answer})
    pytest.fail(f"the questioner did not find {thing.name} in 20 turns: {history}")
