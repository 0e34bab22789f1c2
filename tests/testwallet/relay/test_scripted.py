"""The relay's scripted player: each installed app's players.py, in INSTALLED_APPS order, then a labelled echo."""

import json

from django.apps import apps

from sites.bookshop import players as bookshop_players
from sites.twentyq import players as twentyq_players
from testwallet.relay import scripted
from testwallet.relay.apps import installed_players


def said(body):
    message = scripted.answer(body, installed_players())["choices"][0]["message"]
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls", [])
    ]
    return message["content"], calls


def test_anything_else_is_answered_with_a_label_and_the_visitors_words():
    assert (
        said({"messages": [{"role": "user", "content": "hello"}]})[0]
        == "(scripted stand-in, not an AI) You said: hello"
    )


def test_relay_finds_each_installed_apps_player_in_installed_apps_order():
    assert apps.get_app_config("testwallet_relay").players == (
        bookshop_players.answer,
        twentyq_players.answer,
    )


def test_the_first_player_that_answers_wins_and_the_others_are_not_asked():
    asked = []

    def first(chat):
        asked.append("first")
        return None

    def second(chat):
        asked.append("second")
        return scripted.completion(f"second heard {chat.last_user}")

    def third(chat):
        asked.append("third")
        return scripted.completion("third")

    completion = scripted.answer(
        {"messages": [{"role": "user", "content": "hi"}]}, players=[first, second, third]
    )
    assert completion["choices"][0]["message"]["content"] == "second heard hi" and asked == [
        "first",
        "second",
    ]


def test_without_players_every_chat_gets_the_labelled_echo():
    body = {
        "messages": [{"role": "user", "content": "a book"}],
        "tools": [{"type": "function", "function": {"name": "search_books"}}],
    }
    assert (
        scripted.answer(body, players=())["choices"][0]["message"]["content"]
        == "(scripted stand-in, not an AI) You said: a book"
    )


def test_a_completion_streams_as_openai_style_events_a_word_at_a_time_then_its_tool_calls():
    events = scripted.stream_events(scripted.completion("two words", [("search_books", {"query": "x"})]))
    deltas = [event["choices"][0]["delta"] for event in events]
    assert [d.get("content") for d in deltas[:2]] == ["two ", "words"]
    assert deltas[-2]["tool_calls"][0]["function"]["name"] == "search_books"
    assert events[-1]["choices"][0]["finish_reason"] == "tool_calls"
