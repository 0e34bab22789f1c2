"""
The scripted player: what the stand-ins answer when no model is named. It is not
an AI and says so; it plays each demo's whole path honestly, in the shape of an
OpenAI-compatible chat completion.

- With a `search_books` tool (the bookshop): learn the moods (`list_moods`),
  search the shop by a mood the visitor names or with their words (then with
  single words, longest first, while nothing matches) and answer from the
  results the page's tool calls returned.
- As the Twenty Questions host: answer about the secret from the catalog's
  attributes. As the questioner: ask the catalog's attribute questions that
  split the things still possible, and guess when one is left.
- Anything else: say what it was asked, labelled.
"""

import json
import re
import secrets

from sites.twentyq import catalog, prompts

MODEL = "scripted"
LABEL = "(scripted stand-in, not an AI)"
#: Searches one question may make before the player answers with what it has.
MAX_SEARCHES = 3
#: Words that do not say which book: never searched on their own.
FILLER = frozenset(
    "book books read something about with want would like please some that this tonight recommend give good "
    "novel novels".split()
)
_SECRET = re.compile(r"The secret is: (?P<name>.+?) \(")


def answer(body):
    """Return the chat completion the scripted player gives for an OpenAI-style request body."""
    messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
    offered = body.get("tools") if isinstance(body.get("tools"), list) else []
    tools = {_tool_name(tool) for tool in offered}
    system = "\n".join(_text(m) for m in messages if m.get("role") == "system")
    if "search_books" in tools:
        return _bookshop(messages, tools)
    if (found := _SECRET.search(system)) and catalog.load().thing(found["name"]):
        return _completion(_host(catalog.load().thing(found["name"]), _last_user(messages)))
    if system.startswith(prompts.ASKER[:40]):
        return _completion(_questioner(messages))
    return _completion(f"{LABEL} You said: {_last_user(messages)}")


def event_stream(completion):
    """Return the completion as the chunks of an OpenAI-style event stream."""
    message = completion["choices"][0]["message"]
    base = {"id": completion["id"], "object": "chat.completion.chunk", "model": MODEL}
    chunks = [{"role": "assistant", "content": word} for word in re.findall(r"\s*\S+\s*", message["content"] or "")]
    if message.get("tool_calls"):
        chunks.append(
            {"tool_calls": [{"index": index, **call} for index, call in enumerate(message["tool_calls"])]}
        )
    events = [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]} for delta in chunks]
    finish = completion["choices"][0]["finish_reason"]
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    return [f"data: {json.dumps(event)}\n\n".encode() for event in events] + [b"data: [DONE]\n\n"]


def _completion(content, tool_calls=None):
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{secrets.token_hex(6)}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for name, args in tool_calls
        ]
    return {
        "id": f"chatcmpl-{secrets.token_hex(8)}",
        "object": "chat.completion",
        "model": MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
    }


def _tool_name(tool):
    function = tool.get("function") if isinstance(tool, dict) else None
    return function.get("name") if isinstance(function, dict) else None


def _text(message):
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def _last_user(messages):
    return next((_text(m) for m in reversed(messages) if m.get("role") == "user"), "")


# -- The bookshop ------------------------------------------------------------------------------


def _bookshop(messages, tools):
    """Learn the moods, search by the visitor's mood or words, answer from the last search's result."""
    start = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    words = _last_user(messages).strip()
    since = messages[start + 1 :]
    calls = [call for m in since if m.get("role") == "assistant" for call in m.get("tool_calls") or []]
    answers = {m.get("tool_call_id"): _text(m) for m in since if m.get("role") == "tool"}
    named = [
        (_tool_name(call), _arguments_of(call), answers.get(call.get("id"), ""))
        for call in calls
        if isinstance(call, dict)
    ]
    if "list_moods" in tools and not any(name == "list_moods" for name, _, _ in named):
        return _completion("", [("list_moods", {})])
    searches = [(arguments, found) for name, arguments, found in named if name == "search_books"]
    if not searches:
        moods = next((found for name, _, found in named if name == "list_moods"), "")
        known = {mood.strip().lower() for mood in moods.removeprefix("Moods:").split(",")}
        mood = next((word for word in _search_words(words) if word in known), None)
        return _completion("", [("search_books", {"mood": mood} if mood else {"query": words})])
    arguments, found = searches[-1]
    tried = [a.get("query") or a.get("mood") or "" for a, _ in searches]
    if found.startswith("No books match") and len(searches) < MAX_SEARCHES:
        untried = [w for w in _search_words(words) if w not in tried]
        if untried:
            return _completion("", [("search_books", {"query": untried[0]})])
    if not found or found.startswith("No books match"):
        return _completion(f"{LABEL} I searched the shop for {tried[0]!r} and found no book.")
    books = "; ".join(line.strip() for line in found.splitlines()[1:] if line.strip())
    what = f"{arguments['mood']} books" if arguments.get("mood") else repr(arguments.get("query"))
    return _completion(f"{LABEL} I searched the shop for {what}. It has: {books}")


def _search_words(text):
    """Return the words of the visitor's question worth a search of their own, longest first."""
    words = dict.fromkeys(w.lower() for w in re.findall(r"[\w'-]{4,}", text))  # in order, once each
    return sorted((w for w in words if w not in FILLER), key=len, reverse=True)  # stable: ties keep their order


def _arguments_of(call):
    """Return the string arguments of an earlier tool call in the page's history ({} when unreadable)."""
    function = call.get("function")
    try:
        arguments = json.loads(function.get("arguments") or "{}") if isinstance(function, dict) else {}
    except (TypeError, ValueError):
        return {}
    return {k: v for k, v in arguments.items() if isinstance(v, str)} if isinstance(arguments, dict) else {}


# -- Twenty Questions --------------------------------------------------------------------------


def _host(secret, question):
    """Answer yes or no about the secret from its attributes; 'sometimes' when they do not say."""
    asked = catalog.normalise(question)
    for attribute in catalog.load().attributes:
        if catalog.normalise(attribute.question) == asked:
            return "yes" if secret.attributes[attribute.key] else "no"
    guessed = catalog.load().find(question)
    if guessed is not None:
        return "yes" if guessed is secret else "no"
    return "sometimes"  # the catalog does not know: the one choice that claims nothing


def _questioner(messages):
    """Ask the attribute question that best splits what is still possible; guess when one is left."""
    known = catalog.load()
    questions = {catalog.normalise(a.question): a for a in known.attributes}
    possible = list(known.things)
    wrong = set()
    asked = set()
    for said, reply in zip(messages, messages[1:]):
        if said.get("role") != "assistant":
            continue
        move, answer = _text(said), catalog.normalise(_text(reply).split(".")[0])
        if move.startswith("GUESS:") and answer.startswith("no"):
            wrong.add(catalog.normalise(move[6:]))
        elif move.startswith("QUESTION:") and (attribute := questions.get(catalog.normalise(move[9:]))):
            asked.add(attribute.key)
            if answer in ("yes", "no"):
                possible = [t for t in possible if t.attributes[attribute.key] == (answer == "yes")]
    possible = [t for t in possible if catalog.normalise(t.name) not in wrong] or [
        t for t in known.things if catalog.normalise(t.name) not in wrong
    ]
    last_turn = "your last turn" in _last_user(messages)
    splits = [
        (abs(2 * sum(t.attributes[a.key] for t in possible) - len(possible)), a)
        for a in known.attributes
        if a.key not in asked
    ]
    useful = [(score, a) for score, a in splits if score < len(possible)]
    if len(possible) == 1 or last_turn or not useful:
        return f"GUESS: {possible[0].called()}"
    return f"QUESTION: {min(useful, key=lambda pair: pair[0])[1].question}"
