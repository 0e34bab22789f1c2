"""The relay's scripted player: honest about the Twenty Questions secret, a fair questioner, a bookshop searcher."""

import json

import pytest

from sites.home.relay import scripted
from sites.twentyq import catalog, prompts


def said(body):
    message = scripted.answer(body)["choices"][0]["message"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls", [])]
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
            history.append({"turn": turn, "kind": "guess", "text": text, "answer": "right" if right else "wrong"})
            if right:
                return
        else:
            key = next(a.key for a in catalog.load().attributes if a.question == text)
            answer = "yes" if thing.attributes[key] else "no"
            history.append({"turn": turn, "kind": "question", "text": text, "answer": answer})
    pytest.fail(f"the questioner did not find {thing.name} in 20 turns: {history}")


SEARCH = [{"type": "function", "function": {"name": "search_books"}}]


def searched(query, call_id="c1", name="search_books", **arguments):
    """Return the assistant message of a tool call (search_books with this query, by default)."""
    arguments = arguments or ({"query": query} if query is not None else {})
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {"role": "assistant", "content": "", "tool_calls": [{"id": call_id, "type": "function", "function": function}]}


def result(content, call_id="c1"):
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def test_bookshop_searches_with_the_visitors_words_then_single_words_then_answers_from_the_result():
    asked = [{"role": "user", "content": "lonely robot stories"}]
    assert said({"messages": asked, "tools": SEARCH}) == ("", [("search_books", {"query": "lonely robot stories"})])
    first = searched("lonely robot stories")
    nothing = result("No books match. Try another mood.")
    assert said({"messages": [*asked, first, nothing], "tools": SEARCH})[1] == [("search_books", {"query": "stories"})]
    found = result("1 book(s):\n- Robot Tales by A. Writer (robot-tales)", "c2")
    text, calls = said({"messages": [*asked, first, nothing, searched("stories", "c2"), found], "tools": SEARCH})
    assert calls == []
    assert text == "(scripted stand-in, not an AI) I searched the shop for 'stories'. It has: - Robot Tales by A. Writer (robot-tales)"


def test_anything_else_is_answered_with_a_label_and_the_visitors_words():
    assert said({"messages": [{"role": "user", "content": "hello"}]})[0] == "(scripted stand-in, not an AI) You said: hello"


def test_a_garbled_history_from_the_page_still_gets_an_answer():
    broken = [{"function": {"name": "search_books", "arguments": "{oops"}}, "x"]
    garbled = {"role": "assistant", "content": "", "tool_calls": broken}
    messages = [{"role": "user", "content": "dune"}, garbled, {"role": "tool", "content": 7}, "x"]
    body = {"messages": messages, "tools": SEARCH + ["x"]}
    text, calls = said(body)
    assert calls == [] and text.startswith("(scripted stand-in, not an AI) I searched the shop for ''")
    assert said({"messages": [{"role": "user", "content": "hi"}], "tools": "search_books"})[0].endswith("You said: hi")


def test_bookshop_retries_with_the_words_that_say_which_book_not_filler():
    asked = [{"role": "user", "content": "A calm book for tonight"}]
    history = [*asked, searched("A calm book for tonight"), result("No books match.")]
    assert said({"messages": history, "tools": SEARCH})[1] == [("search_books", {"query": "calm"})]
    text, calls = said({"messages": [*history, searched("calm", "c2"), result("No books match.", "c2")], "tools": SEARCH})
    assert calls == [] and text.endswith("I searched the shop for 'A calm book for tonight' and found no book.")


def test_bookshop_learns_the_moods_first_and_searches_by_the_mood_the_visitor_names():
    tools = [*SEARCH, {"type": "function", "function": {"name": "list_moods"}}]
    asked = [{"role": "user", "content": "Something Cosy for a rainy day"}]
    assert said({"messages": asked, "tools": tools}) == ("", [("list_moods", {})])
    history = [*asked, searched(None, "m", "list_moods"), result("Moods: calm, cosy, dark", "m")]
    assert said({"messages": history, "tools": tools})[1] == [("search_books", {"mood": "cosy"})]
    found = result("1 book(s):\n- Tea Time by B. Writer (tea-time)", "s")
    text, calls = said({"messages": [*history, searched(None, "s", mood="cosy"), found], "tools": tools})
    assert calls == [] and text == "(scripted stand-in, not an AI) I searched the shop for cosy books. It has: - Tea Time by B. Writer (tea-time)"
