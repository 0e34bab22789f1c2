"""
A move over the direct link: the server calls the visitor's wallet with
``params.stream``, relays each ``chunk`` to the page as a server-sent event
as it arrives, and ends with the recorded move (``result``) or why nothing
was recorded (``error``).

The page reads the stream with ``fetch``; its Stop aborts that fetch. Django
then cancels this generator (``CancelledError`` at its current ``await``),
which stops waiting for the wallet: nothing is recorded, and the call's slot
on the wallet connection is freed when the wallet's late result arrives
(``byoa.inflight``). A dropped wallet or a timeout ends the wallet's stream
with no output, and the page gets ``error`` / ``wallet-no-answer``.
"""

import json
import logging

from byoa.calls import stream_wallet

from sites.twentyq import store
from sites.twentyq.exceptions import GameError, UnusableReply
from sites.twentyq.game import Game
from sites.twentyq.replies import MAX_REPLY_CHARS, parse_choice
from sites.twentyq.rules import CHOICES, LINK_WAY

logger = logging.getLogger(__name__)

SKILL = "text.generate"


def event(name, data):
    """Return one server-sent event: its name and one line of JSON."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def move_events(session, pairing, models, prompt, *, timeout=None):
    """Yield the events of one streamed move; ``prompt`` is (id, turn, messages, params).

    Each model's call is bounded by ``timeout`` seconds, deltas included
    (default: ``BYOA["CALL_SECONDS"]``).
    """
    prompt_id, turn, messages, params = prompt
    yield event("start", {"turn": turn, "models": [model or "m1" for model in models]})
    texts = []
    for index, model in enumerate(models):
        call_params = {**params, "model": model} if model else dict(params)
        stream = stream_wallet(pairing, SKILL, {"messages": messages}, call_params, timeout=timeout)
        relayed = 0
        async for delta in stream:
            relayed += len(delta)
            if relayed > MAX_REPLY_CHARS:
                yield await _error(session, "model-too-long", f"The AI's reply went over {MAX_REPLY_CHARS} characters; it was cut off and not used.")
                return
            yield event("delta", {"model": model or "m1", "text": delta})
        output = stream.output
        text = output.get("text") if isinstance(output, dict) else None
        if not isinstance(text, str):
            if index == 0:
                yield await _error(session, "wallet-no-answer", "Your AI wallet gave no answer (it refused, went away or took too long).")
                return
            text = ""  # the check model said nothing: shown as its problem
        texts.append((model, text))
        if index == 1:
            yield event("reply", _check_event(model, text))
    yield await _record(session, prompt_id, turn, texts)


def _check_event(model, text):
    """Return the check model's outcome as the page shows it (agreement is decided when recorded)."""
    try:
        answer, problem = parse_choice(text, CHOICES), None
    except UnusableReply as exc:
        answer, problem = None, exc.message
    return {"model": model, "answer": answer, "problem": problem}


async def _record(session, prompt_id, turn, texts):
    stored = store.fresh(session)
    data = await stored.aget(store.SESSION_KEY)
    if not isinstance(data, dict):
        return event("error", {"error": "no-game", "message": "The game is gone; start a new one.", "game": None})
    game = Game(data)
    before = json.dumps(data)
    try:
        game.apply_replies(prompt_id, turn, texts, LINK_WAY)
    except GameError as exc:
        return event("error", {"error": exc.code, "message": exc.message, "game": Game(json.loads(before)).public()})
    await stored.aset(store.SESSION_KEY, game.data)
    await stored.asave()
    return event("result", {"game": game.public()})


async def _error(session, code, message):
    game = await store.load(store.fresh(session))
    return event("error", {"error": code, "message": message, "game": game.public() if game else None})
