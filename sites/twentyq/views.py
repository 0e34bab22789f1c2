"""
The Twenty Questions page and its JSON endpoints (sites/twentyq/README.md, "The HTTP
API"). Each endpoint reads the body, asks the game for one change and answers
with the game; the rules live in game.py.

Forms posted without a script (own mode with no JavaScript) get a redirect
back to the page instead of JSON, with any error shown there.
"""

import json

from django.contrib import messages
from django.http import HttpResponseRedirect, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from byoa import aget_pairing, describe_manifest, get_manifest
from sites.home.snippet import integration_snippet
from sites.twentyq import catalog as catalog_module
from sites.twentyq import move_events, pace, store
from sites.twentyq.exceptions import BadInput, GameError
from sites.twentyq.game import Game
from sites.twentyq.rules import ANSWERS, CHOICES, LIMIT, MODEL_CODES, PAGE_WAYS

MANIFEST = "twentyq"
NOT_LINKED = GameError(
    "not-linked", "No AI wallet is linked to this browser now; link one, or play on without it."
)
ENDPOINTS = ("state", "new", "own", "prompt", "reply", "stream", "answer", "verdict", "guess")


@never_cache
@require_GET
async def index(request):
    """Show the game: own mode works with plain forms; the page script adds the AI ways.

    It stores no session (DESIGN.md, "Security rules"): the first move does.
    """
    catalog = catalog_module.load()
    game = await store.load(request.session)
    manifest = get_manifest(MANIFEST)
    config = {
        "manifestName": MANIFEST,
        "manifest": manifest.data,
        "limit": LIMIT,
        "answers": [{"value": value, "label": label} for value, label in ANSWERS.items()],
        "choices": list(CHOICES),
        "attributes": [{"key": a.key, "question": a.question} for a in catalog.attributes],
        "urls": {
            **{name: reverse(f"twentyq:{name}") for name in ENDPOINTS},
            "code": reverse("byoa:code"),
            "wait": reverse("byoa:wait"),
            "disconnect": reverse("byoa:disconnect"),
        },
        "linked": await aget_pairing(request, MANIFEST, connected=True) is not None,
        "game": game.public(catalog_module.load()) if game else None,
    }
    context = {
        "config": config,
        "game": config["game"],
        "manifest_lines": describe_manifest(manifest.data),
        "attributes": catalog.attributes,
        "answers": ANSWERS,
        "snippet": integration_snippet("twentyq/page.js"),
    }
    return render(request, "twentyq/index.html", context)


@never_cache
@require_GET
async def state(request):
    """Return the session's game and whether a wallet is linked."""
    game = await store.load(request.session)
    return JsonResponse(
        {
            "game": game.public(catalog_module.load()) if game else None,
            "linked": await aget_pairing(request, MANIFEST, connected=True) is not None,
        }
    )


@require_POST
async def new(request):
    """Start a game in the chosen mode (and, with next=own, let the site ask at once)."""

    def change(game, body):
        game = Game.new(body.get("mode"), catalog_module.load())
        _then_own(game, body)
        return game

    return await _play(request, change, new=True)


@require_POST
async def own(request):
    """Make the site's own move: ask (ai-asks) or answer an attribute question (site-thinks)."""

    def change(game, body):
        if game.mode == "ai-asks":
            game.own_move(catalog_module.load())
        else:
            game.own_question(catalog_module.load(), body.get("attribute"))

    return await _play(request, change)


@require_POST
async def answer(request):
    """Record the visitor's answer to the AI's question."""

    def change(game, body):
        game.answer(_int(body, "turn"), body.get("answer"))
        _then_own(game, body)

    return await _play(request, change)


@require_POST
async def verdict(request):
    """Record whether the AI's guess is right."""

    def change(game, body):
        game.verdict(_int(body, "turn"), _bool(body, "correct"))
        _then_own(game, body)

    return await _play(request, change)


@require_POST
async def guess(request):
    """Compare the visitor's guess with the site's secret."""
    result = {}

    def change(game, body):
        result["correct"] = game.guess(catalog_module.load(), body.get("guess"))

    return await _play(request, change, extra=result)


@require_POST
async def prompt(request):
    """Open a model move for a way in the page: return the messages and params to run."""
    result = {}

    def change(game, body):
        prompt_id, turn, messages_, params = game.begin_prompt(catalog_module.load(), body.get("question"))
        result.update(promptId=prompt_id, turn=turn, prompt={"messages": messages_, "params": params})
        result["models"] = 1 if game.mode == "ai-asks" else 2

    return await _play(request, change, extra=result)


@require_POST
async def reply(request):
    """Record a model's move from the raw text the page's model gave."""

    def change(game, body):
        way = body.get("way")
        if way not in PAGE_WAYS:
            raise BadInput("bad-way", "Say which way in ran the model: " + ", ".join(PAGE_WAYS) + ".")
        game.apply_replies(body.get("promptId"), _int(body, "turn"), _replies(body.get("replies")), way)

    return await _play(request, change)


@require_POST
async def stream(request):
    """Make a model move through the visitor's linked wallet, streamed as server-sent events."""
    pairing = await aget_pairing(request, MANIFEST, connected=True)
    if pairing is None or not _wants_json(request):
        refusal = NOT_LINKED if pairing is None else BadInput("bad-request", "Send a JSON object.")
        return _error_json(refusal, await store.load(request.session))
    models = _granted_models(pairing) or [None]  # None: the grant names no models, so no params.model
    started = {}

    def change(game, body):
        started["previous"] = game.data["prompt"]
        started["prompt"] = game.begin_prompt(catalog_module.load(), body.get("question"))
        started["models"] = models[:1] if game.mode == "ai-asks" else models[:2]

    answered = await _play(request, change)
    if "prompt" not in started:
        return answered  # the game refused: a JSON error, not a stream
    per_minute = get_manifest(MANIFEST).limit("maxCallsPerMinute", 60)
    wait = await pace.take(request.session, len(started["models"]), per_minute)
    if wait:
        return await _slow_down(request, started["previous"], per_minute, wait)
    await request.session.asave()  # before the stream: its end reads the game again
    response = StreamingHttpResponse(
        move_events.move_events(request.session, pairing, started["models"], started["prompt"]),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response


# -- helpers -------------------------------------------------------------------


async def _play(request, change, *, new=False, extra=None):
    """Apply one change to the session's game and answer with the game (or the error)."""
    game = await store.load(request.session)
    try:
        body = _body(request)
        if game is None and not new:
            raise GameError("no-game", "There is no game yet; start one.")
        changed = change(game, body)
        game = changed or game
    except GameError as exc:
        return (
            _error_json(exc, await store.load(request.session))
            if _wants_json(request)
            else _back(request, exc)
        )
    await store.save(request.session, game)
    if not _wants_json(request):
        return _back(request)
    return JsonResponse({"game": game.public(catalog_module.load()), **(extra or {})})


def _then_own(game, body):
    if body.get("next") == "own" and game.mode == "ai-asks" and game.data["status"] == "playing":
        game.own_move(catalog_module.load())


def _body(request):
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
            # "\ud800" alone is JSON but not text: the game (and the wallet's calls it makes) could
            # not encode it later. UnicodeEncodeError is a ValueError: refused here, as bad JSON is.
            json.dumps(body, ensure_ascii=False).encode("utf-8")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise BadInput("bad-request", "Send a JSON object of text.")
        return body
    return {key: request.POST.get(key) for key in request.POST} | {"_form": True}


def _wants_json(request):
    return request.content_type == "application/json"


def _int(body, key):
    value = body.get(key)
    if body.get("_form") and isinstance(value, str) and value.isdigit():
        return int(value)
    return value


def _bool(body, key):
    value = body.get(key)
    if body.get("_form") and value in ("true", "false"):
        return value == "true"
    return value


def _replies(value):
    """Return [(model, text)] from the page's replies, or raise BadInput."""
    problem = BadInput(
        "bad-replies",
        'Send 1 or 2 replies: [{"model": "m1" or "m2" or null, "text": "<the model\'s text>"}].',
    )
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise problem
    out = []
    for item in value:
        if not isinstance(item, dict) or item.get("model") not in (*MODEL_CODES, None):
            raise problem
        if not isinstance(item.get("text"), str):
            raise problem
        out.append((item.get("model"), item["text"]))
    if len(out) == 2 and out[0][0] == out[1][0]:
        raise problem
    return out


def _error_json(exc, game):
    body = {
        "error": exc.code,
        "message": exc.message,
        "game": game.public(catalog_module.load()) if game else None,
    }
    return JsonResponse(body, status=exc.status)


def _back(request, exc=None):
    if exc is not None:
        messages.error(request, exc.message)
    # 303: the browser follows a form's POST with a GET of the page.
    return HttpResponseRedirect(reverse("twentyq:index"), status=303)


async def _slow_down(request, previous_prompt, per_minute, wait):
    """Undo the move just opened and answer 429: the wallet would refuse calls over its limit."""
    game = await store.load(request.session)
    game.data["prompt"] = previous_prompt
    await store.save(request.session, game)
    message = f"Your AI may be asked {per_minute} times a minute; try again in {wait} s."
    response = _error_json(GameError("slow-down", message), game)
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


def _granted_models(pairing):
    """Return the model codes the visitor ticked, as the pairing stores its grant (Grant.as_json)."""
    models = pairing.grant.get("models") if isinstance(pairing.grant, dict) else None
    return sorted(code for code in models if isinstance(code, str)) if isinstance(models, list) else []
