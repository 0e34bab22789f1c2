"""
A move over the direct link: the server calls the visitor's wallet with
``params.stream``, relays each ``chunk`` to the page as a server-sent event
as it arrives, and ends with the recorded move (``result``) or why nothing
was recorded (``error``). Each chunk is its own ``delta`` event; chunks that
arrive while the previous write is still under way go out together in one
write (``_batches``), so a fast wallet does not queue one write per chunk.

The page reads the stream with ``fetch``; its Stop aborts that fetch. Django
then cancels this generator (``CancelledError`` at its current ``await``),
which stops waiting for the wallet: nothing is recorded, and the call's slot
on the wallet connection is freed at once (the stream's close cancels the
call: ``byoa.calls.LocalReply.close``); the wallet's late result is dropped.
A call that ends without an output (declined, dropped,
timed out, ...) raises its ``WalletCallError``: the log names which, and the
page gets ``error`` / ``wallet-no-answer`` (a page never learns which).
"""

import asyncio
import json
import logging
from contextlib import aclosing

from byoa import WalletCallError, stream_wallet
from sites.twentyq import catalog, store
from sites.twentyq.exceptions import GameError, UnusableReply
from sites.twentyq.game import Game
from sites.twentyq.model_text import MAX_REPLY_CHARS, parse_choice
from sites.twentyq.rules import CHOICES, LINK_WAY

SKILL = "text.generate"
NO_ANSWER = "Your AI wallet gave no answer (it refused, went away or took too long)."
TOO_LONG = f"The AI's reply went over {MAX_REPLY_CHARS} characters; it was cut off and not used."

logger = logging.getLogger(__name__)


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
        try:
            async with aclosing(_batches(stream)) as batches:  # closed at once, even on an early return
                async for deltas in batches:
                    relayed += sum(len(delta) for delta in deltas)
                    if relayed > MAX_REPLY_CHARS:
                        yield await _error(session, "model-too-long", TOO_LONG)
                        return
                    yield b"".join(
                        event("delta", {"model": model or "m1", "text": delta}) for delta in deltas
                    )
        except WalletCallError as exc:  # NoPairing, WalletOffline, WalletDeclined, WalletTimeout, ...
            logger.info("twentyq: model %s gave no move: %s", model or "m1", type(exc).__name__)
            output = None
        else:
            output = stream.output
        text = output.get("text") if isinstance(output, dict) else None
        if not isinstance(text, str):
            if index == 0:
                yield await _error(session, "wallet-no-answer", NO_ANSWER)
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


async def _batches(stream):
    """Yield the deltas of a wallet stream in lists: one delta each while the page keeps up, more when not.

    Each delta stays its own event, but the deltas that arrived while the last
    write was under way go out in one write: under a burst, the per-write cost
    of Django and daphne is paid once per batch instead of once per chunk.
    """
    arrived = []
    ready = asyncio.Event()
    ended = False

    async def pump():
        nonlocal ended
        try:
            async for delta in stream:
                arrived.append(delta)
                ready.set()
        finally:
            ended = True
            ready.set()

    task = asyncio.ensure_future(pump())
    try:
        while not (ended and not arrived):
            await ready.wait()
            ready.clear()
            if arrived:
                batch = arrived[:]
                del arrived[:]
                yield batch
        await task  # re-raises what ended the pump, if anything did
    finally:
        task.cancel()  # a Stop (this generator cancelled or closed) stops waiting for the wallet


async def _record(session, prompt_id, turn, texts):
    stored = store.fresh(session)
    data = await stored.aget(store.SESSION_KEY)
    if not isinstance(data, dict):
        return event(
            "error", {"error": "no-game", "message": "The game is gone; start a new one.", "game": None}
        )
    game = Game(data)
    before = json.dumps(data)
    try:
        game.apply_replies(prompt_id, turn, texts, LINK_WAY)
    except GameError as exc:
        return event(
            "error",
            {
                "error": exc.code,
                "message": exc.message,
                "game": Game(json.loads(before)).public(catalog.load()),
            },
        )
    await stored.aset(store.SESSION_KEY, game.data)
    await stored.asave()
    return event("result", {"game": game.public(catalog.load())})


async def _error(session, code, message):
    game = await store.load(store.fresh(session))
    return event(
        "error", {"error": code, "message": message, "game": game.public(catalog.load()) if game else None}
    )
