"""
The bookshop's scripted player, for the relay of the `?testwallet=1` stand-ins
(testwallet.relay) when no model is named. With a `search_books` tool it learns
the moods (`list_moods`), searches the shop by a mood the visitor names or with
their words (then with single words, longest first, while nothing matches) and
answers from the results the page's tool calls returned. Its text does not say what it is:
the page names who answered each turn once ("Scripted stand-in, not an AI", assistant.js), as the
test wallet's banner does for the page.
"""

import json
import re
from typing import Any

from testwallet.relay.scripted import Chat, Completion, completion, text_of, tool_name

#: Searches one question may make before the player answers with what it has.
MAX_SEARCHES = 3
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
    # One book a line, as the tool lists them ("- Title by Author ..."): the page draws a list.
    books = "\n".join(line.strip() for line in found.splitlines()[1:] if line.strip())
    what = f"{arguments['mood']} books" if arguments.get("mood") else repr(arguments.get("query"))
    return completion(f"I searched the shop for {what}. It has:\n{books}")


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
