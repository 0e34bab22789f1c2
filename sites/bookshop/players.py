"""
The bookshop's scripted player, for the relay of the `?testwallet=1` stand-ins
(testwallet.relay) when no model is named. With a `search_books` tool it learns
the moods (`list_moods`), searches the shop by a mood the visitor names or with
their words (then with single words, longest first, while nothing matches) and
answers with what it found: the page shows the books themselves, as cards, once. Asked
to put one in the basket ("the first one", "the second", ...), it adds that book of its
last search with `add_to_basket`. Its text does not say what it is:
the page names who answered each turn once ("Scripted stand-in, not an AI", assistant.js), as the
test wallet's banner does for the page.
"""

import json
import re
from typing import Any

from testwallet.relay.scripted import Chat, Completion, completion, text_of, tool_name

#: Searches one question may make before the player answers with what it has.
MAX_SEARCHES = 3
#: A request for the basket ("put the first one in my basket"), and which book of the last search it means.
BASKET = re.compile(r"\b(?:put|add)\b.*\bbasket\b", re.IGNORECASE | re.DOTALL)
WHICH = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}
#: A book's slug in a search_books result's line ("- Dune by Frank Herbert (1965), £9.99 [dune] ...").
SLUG = re.compile(r"\[([a-z0-9]+(?:-[a-z0-9]+)*)\]")
#: Words that do not say which book: never searched on their own.
FILLER = frozenset(
    [
        "book",
        "books",
        "read",
        "something",
        "about",
        "with",
        "want",
        "would",
        "like",
        "please",
        "some",
        "that",
        "this",
        "tonight",
        "recommend",
        "give",
        "good",
        "novel",
        "novels",
    ]
)


def answer(chat: Chat) -> Completion | None:
    """Learn the moods, search by the visitor's mood or words, answer from the last search's result."""
    if "search_books" not in chat.tools:
        return None
    messages = chat.messages
    start = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    words = chat.last_user.strip()
    since = messages[start + 1 :]
    calls = [call for m in since if m.get("role") == "assistant" for call in m.get("tool_calls") or []]
    answers = {m.get("tool_call_id"): text_of(m) for m in since if m.get("role") == "tool"}
    named = [
        (tool_name(call), _arguments_of(call), answers.get(call.get("id"), ""))
        for call in calls
        if isinstance(call, dict)
    ]
    if "add_to_basket" in chat.tools and BASKET.search(words):
        return _fill_basket(messages[: start + 1], words, named)
    if "list_moods" in chat.tools and not any(name == "list_moods" for name, _, _ in named):
        return completion("", [("list_moods", {})])
    searches = [(arguments, found) for name, arguments, found in named if name == "search_books"]
    if not searches:
        moods = next((found for name, _, found in named if name == "list_moods"), "")
        known = {mood.strip().lower() for mood in moods.removeprefix("Moods:").split(",")}
        mood = next((word for word in _search_words(words) if word in known), None)
        return completion("", [("search_books", {"mood": mood} if mood else {"query": words})])
    arguments, found = searches[-1]
    tried = [a.get("query") or a.get("mood") or "" for a, _ in searches]
    if found.startswith("No books match") and len(searches) < MAX_SEARCHES:
        untried = [w for w in _search_words(words) if w not in tried]
        if untried:
            return completion("", [("search_books", {"query": untried[0]})])
    if not found or found.startswith("No books match"):
        return completion(f"I searched the shop for {tried[0]!r} and found no book.")
    # The page shows the books found as cards: the answer says what was searched and how many, once.
    count = len(SLUG.findall(found)) or len([line for line in found.splitlines()[1:] if line.strip()])
    what = f"{arguments['mood']} books" if arguments.get("mood") else repr(arguments.get("query"))
    books = "1 book" if count == 1 else f"{count} books"
    return completion(
        f"I searched the shop for {what} and found {books}: here below. "
        "Say “put the first one in my basket” and I will."
    )


def _fill_basket(before: list[Any], words: str, named: list[tuple[str, dict[str, str], str]]) -> Completion:
    """Add the book the visitor means from the last search before this question; then say what the basket holds."""
    added = next((found for name, _, found in named if name == "add_to_basket"), None)
    if added is not None:
        held = "\n".join(line.strip() for line in added.splitlines()[1:] if line.strip())
        return completion(f"Done: it is in your basket, which now holds:\n{held}" if held else added)
    results = (text_of(m) for m in reversed(before) if isinstance(m, dict) and m.get("role") == "tool")
    slugs = next((found for found in map(SLUG.findall, results) if found), [])
    if not slugs:
        return completion("Ask me for a book first; then I can put one of those in your basket.")
    which = next((index for word, index in WHICH.items() if re.search(rf"\b{word}\b", words, re.I)), 0)
    if which >= len(slugs):
        return completion(f"My last search found only {len(slugs)}: which one shall I put in your basket?")
    return completion("", [("add_to_basket", {"slug": slugs[which]})])


def _search_words(text: str) -> list[str]:
    """Return the words of the visitor's question worth a search of their own, longest first."""
    words = dict.fromkeys(w.lower() for w in re.findall(r"[\w'-]{4,}", text))  # in order, once each
    return sorted(
        (w for w in words if w not in FILLER), key=len, reverse=True
    )  # stable: ties keep their order


def _arguments_of(call: dict[str, Any]) -> dict[str, str]:
    """Return the string arguments of an earlier tool call in the page's history ({} when unreadable)."""
    function = call.get("function")
    try:
        arguments = json.loads(function.get("arguments") or "{}") if isinstance(function, dict) else {}
    except (TypeError, ValueError):
        return {}
    return {k: v for k, v in arguments.items() if isinstance(v, str)} if isinstance(arguments, dict) else {}
