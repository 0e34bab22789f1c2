"""
The bookshop's scripted player (sites/bookshop/players.py), as the relay finds it:
it searches the shop and answers from the results.
"""

import json

from testwallet.relay import scripted
from testwallet.relay.apps import installed_players


def said(body):
    message = scripted.answer(body, installed_players())["choices"][0]["message"]
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls", [])
    ]
    return message["content"], calls


SEARCH = [{"type": "function", "function": {"name": "search_books"}}]


def searched(query, call_id="c1", name="search_books", **arguments):
    """Return the assistant message of a tool call (search_books with this query, by default)."""
    arguments = arguments or ({"query": query} if query is not None else {})
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": call_id, "type": "function", "function": function}],
    }


def result(content, call_id="c1"):
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def test_bookshop_searches_with_the_visitors_words_then_single_words_then_answers_from_the_result():
    asked = [{"role": "user", "content": "lonely robot stories"}]
    assert said({"messages": asked, "tools": SEARCH}) == (
        "",
        [("search_books", {"query": "lonely robot stories"})],
    )
    first = searched("lonely robot stories")
    nothing = result("No books match. Try another mood.")
    assert said({"messages": [*asked, first, nothing], "tools": SEARCH})[1] == [
        ("search_books", {"query": "stories"})
    ]
    found = result("1 book(s):\n- Robot Tales by A. Writer (robot-tales)", "c2")
    text, calls = said(
        {"messages": [*asked, first, nothing, searched("stories", "c2"), found], "tools": SEARCH}
    )
    assert calls == []
    assert text == (
        "I searched the shop for 'stories' and found 1 book: here below. "
        "Say “put the first one in my basket” and I will."
    )


def test_a_garbled_history_from_the_page_still_gets_an_answer():
    broken = [{"function": {"name": "search_books", "arguments": "{oops"}}, "x"]
    garbled = {"role": "assistant", "content": "", "tool_calls": broken}
    messages = [{"role": "user", "content": "dune"}, garbled, {"role": "tool", "content": 7}, "x"]
    body = {"messages": messages, "tools": SEARCH + ["x"]}
    text, calls = said(body)
    assert calls == [] and text.startswith("I searched the shop for ''")
    assert said({"messages": [{"role": "user", "content": "hi"}], "tools": "search_books"})[0].endswith(
        "You said: hi"
    )


def test_bookshop_retries_with_the_words_that_say_which_book_not_filler():
    asked = [{"role": "user", "content": "A calm book for tonight"}]
    history = [*asked, searched("A calm book for tonight"), result("No books match.")]
    assert said({"messages": history, "tools": SEARCH})[1] == [("search_books", {"query": "calm"})]
    text, calls = said(
        {"messages": [*history, searched("calm", "c2"), result("No books match.", "c2")], "tools": SEARCH}
    )
    assert calls == [] and text.endswith(
        "I searched the shop for 'A calm book for tonight' and found no book."
    )


def test_bookshop_learns_the_moods_first_and_searches_by_the_mood_the_visitor_names():
    tools = [*SEARCH, {"type": "function", "function": {"name": "list_moods"}}]
    asked = [{"role": "user", "content": "Something Cosy for a rainy day"}]
    assert said({"messages": asked, "tools": tools}) == ("", [("list_moods", {})])
    history = [*asked, searched(None, "m", "list_moods"), result("Moods: calm, cosy, dark", "m")]
    assert said({"messages": history, "tools": tools})[1] == [("search_books", {"mood": "cosy"})]
    found = result("1 book(s):\n- Tea Time by B. Writer (tea-time)", "s")
    text, calls = said({"messages": [*history, searched(None, "s", mood="cosy"), found], "tools": tools})
    assert calls == [] and text.startswith("I searched the shop for cosy books and found 1 book: here below.")
    assert "Tea Time" not in text  # the page shows the books as cards: once


BASKET = [*SEARCH, {"type": "function", "function": {"name": "add_to_basket"}}]
FOUND = result(
    "2 book(s):\n- Dune by Frank Herbert (1965), £9.99 [dune] moods: epic\n"
    "- Emma by Jane Austen (1815), £6.99 [emma] moods: funny"
)


def test_put_the_first_one_in_my_basket_adds_the_first_book_of_the_last_search_then_says_so():
    earlier = [
        {"role": "user", "content": "dune"},
        searched("dune"),
        FOUND,
        {"role": "assistant", "content": "..."},
    ]
    asked = [*earlier, {"role": "user", "content": "Put the first one in my basket"}]
    assert said({"messages": asked, "tools": BASKET}) == ("", [("add_to_basket", {"slug": "dune"})])
    second = [*earlier, {"role": "user", "content": "add the second one to my basket please"}]
    assert said({"messages": second, "tools": BASKET})[1] == [("add_to_basket", {"slug": "emma"})]
    added = result("Added 1 x dune. The basket now holds:\n- 1 x Dune (£9.99)\nTotal: £9.99", "b")
    text, calls = said(
        {"messages": [*asked, searched(None, "b", "add_to_basket", slug="dune"), added], "tools": BASKET}
    )
    assert (
        calls == []
        and text == "Done: it is in your basket, which now holds:\n- 1 x Dune (£9.99)\nTotal: £9.99"
    )


def test_a_basket_request_before_any_search_or_past_its_books_asks_rather_than_guesses():
    first = [{"role": "user", "content": "put the first one in my basket"}]
    text, calls = said({"messages": first, "tools": BASKET})
    assert calls == [] and text.startswith("Ask me for a book first")
    fifth = [{"role": "user", "content": "dune"}, searched("dune"), FOUND]
    fifth.append({"role": "user", "content": "put the fifth in my basket"})
    text, calls = said({"messages": fifth, "tools": BASKET})
    assert calls == [] and text == "My last search found only 2: which one shall I put in your basket?"
