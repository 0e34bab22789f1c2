"""
The game's pages. The page sends only an answer's text (typed, or a
transcript from the visitor's extension) or a clip (for the direct link); the
round, the score and the expected country live in the session (game.py), and
the verdict is scoring.py's comparison, never the model's opinion.

Every POST keeps Django's CSRF protection; the page sends the token as
``X-CSRFToken``. A form post (no JavaScript) gets a redirect to the game,
which shows the result; a JSON post gets JSON.
"""

import base64
import json
import logging
import secrets

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from byoa import WalletCallError, aget_pairing, call_wallet, describe_manifest, get_manifest
from sites.geography import clips, game, names
from sites.geography.exceptions import AnswerRefused, BadAnswer, ClipRefused, UnknownLanguage
from sites.geography.pictures import with_pictures
from sites.home.snippet import integration_snippet

#: The manifest's name: this app's label (its manifest.json sits beside this file).
MANIFEST = "geography"
LAST_KEY = "geography_last"  # the result a form post shows after its redirect
FIRST_GAME_COOKIE = "geography_first_game"  # the seed of the game a page view shows before a session exists
NO_WALLET = "Your AI did not answer this time. Type your answer instead."

logger = logging.getLogger(__name__)


async def _state(request: HttpRequest, *, seed: str | None = None, keep: bool = True) -> dict:
    """Return the session's game; without one, the first game of ``seed`` (else the browser's cookie's).

    A page view (keep=False) stores no session (DESIGN.md, "Security rules"); the
    visitor's first answer or choice stores the game the page showed, which its
    seed, kept in a signed cookie, makes again.
    """
    state = await request.session.aget(game.SESSION_KEY)
    if not game.valid(state):  # a first visit, or a session this code did not write
        state = game.first_game(seed or _first_game_seed(request) or secrets.token_urlsafe(18))
        if keep:
            await request.session.aset(game.SESSION_KEY, state)
    return state


def _first_game_seed(request: HttpRequest) -> str | None:
    """Return the seed of this browser's first game from its signed cookie, or None."""
    return request.get_signed_cookie(FIRST_GAME_COOKIE, default=None, salt=FIRST_GAME_COOKIE) or None


def _keep_first_game_seed(response: HttpResponse, seed: str) -> None:
    """Give the browser its first game's seed in a signed cookie (nothing stored on the server)."""
    response.set_signed_cookie(
        FIRST_GAME_COOKIE,
        seed,
        salt=FIRST_GAME_COOKIE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE or None,
    )


def _error(code, message, status=400):
    return JsonResponse({"error": code, "message": message}, status=status)


def _wants_json(request):
    return request.content_type == "application/json"


def _field(request, name):
    """Return a field of a JSON or form body; None when it is missing."""
    if not _wants_json(request):
        return request.POST.get(name)
    try:
        body = json.loads(request.body or b"{}")
        # "\ud800" alone is JSON but not text: the session's game and the wallet's call could not
        # encode it later. UnicodeEncodeError is a ValueError: refused here, as bad JSON is.
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except ValueError:
        raise BadAnswer("bad-json", 'Send a JSON object of text, e.g. {"text": "Peru"}.') from None
    if not isinstance(body, dict):
        raise BadAnswer("bad-json", 'Send a JSON object of text, e.g. {"text": "Peru"}.')
    return body.get(name)


async def _reply(request, payload, status=200):
    """Answer JSON, or remember the payload for the page and redirect to it (a form post)."""
    if _wants_json(request):
        return JsonResponse(payload, status=status)
    await request.session.aset(LAST_KEY, payload)
    return redirect("geography:index")


@never_cache
@require_GET
async def index(request):
    """Show what the game asks of the visitor's AI, the question, and the three ways to answer."""
    seed = _first_game_seed(request) or secrets.token_urlsafe(18)
    state = await _state(request, seed=seed, keep=False)
    manifest = get_manifest(MANIFEST)
    last = await request.session.apop(LAST_KEY, None)
    context = {
        "manifest": manifest.data,
        "manifest_lines": describe_manifest(manifest.data),
        "progress": with_pictures(game.progress(state)),
        "languages": [(code, names.language_name(code)) for code in names.LANGUAGES],
        "last": last,
        "snippet": integration_snippet("geography/game.js"),
    }
    response = render(request, "geography/index.html", context)
    if not await request.session.ahas_key(game.SESSION_KEY):
        _keep_first_game_seed(response, seed)
    return response


@require_POST
async def answer(request):
    """Judge a typed answer, or a transcript the visitor's extension gave the page (``heard``: true)."""
    state = await _state(request)
    asked = game.question(state)  # the verdict is shown with the question it answers, not the next one
    try:
        text = _field(request, "text")
        heard = _field(request, "heard") is True
        state, result = game.answer(state, text)
    except (BadAnswer, AnswerRefused) as exc:
        return await _reply(request, {"error": exc.code, "message": str(exc)}, status=400)
    await request.session.aset(game.SESSION_KEY, state)
    message = game.message(result, heard=heard)
    return await _reply(request, with_pictures({**result, "asked": asked, "message": message}))


@require_POST
async def clip(request):
    """Have the visitor's paired wallet transcribe a clip, then judge the transcript.

    The body is the WAV itself (Content-Type audio/wav). Only this browser
    session's pairing is called. No pairing, a refusal or a timeout answers
    ``transcript: null`` with a sentence for the visitor, who types instead.
    """
    max_seconds = get_manifest(MANIFEST).limit("maxClipSeconds", 15)
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > clips.max_bytes(max_seconds):
        return _error(
            "clip-too-large",
            f"A clip is at most {max_seconds} seconds ({clips.max_bytes(max_seconds)} bytes).",
            413,
        )
    if request.content_type != "audio/wav":
        return _error("clip-invalid", "Send the clip as the body, with Content-Type: audio/wav.", 415)
    try:
        clip = clips.checked(request.body, max_seconds)  # the wallet gets what was checked, nothing else
    except RequestDataTooBig:
        return _error("clip-too-large", f"A clip is at most {max_seconds} seconds.", 413)
    except ClipRefused as exc:
        return _error(exc.code, str(exc), 413 if exc.code in ("clip-too-large", "clip-too-long") else 400)
    state = await _state(request)
    if state["finished"]:
        return _error("game-over", "This game is over; start a new one.", 409)
    asked = game.question(state)
    transcript = await _transcribe(request, clip, state["language"])
    if transcript is None:
        return JsonResponse({"transcript": None, "message": NO_WALLET})
    # The wallet's text is untrusted input: judged (and echoed) at most as long as a typed answer.
    transcript = transcript[: game.MAX_ANSWER_CHARS]
    state, result = game.answer(state, transcript)
    await request.session.aset(game.SESSION_KEY, state)
    payload = {
        "transcript": transcript,
        **result,
        "asked": asked,
        "message": game.message(result, heard=True),
    }
    return JsonResponse(with_pictures(payload))


async def _transcribe(request, wav, language):
    """Return the text this browser session's wallet heard in a clip, or None (own mode: typing)."""
    pairing = await aget_pairing(request, MANIFEST)
    clip_input = {"audio": {"mime": "audio/wav", "base64": base64.b64encode(wav).decode("ascii")}}
    try:
        output = await call_wallet(pairing, "audio.transcribe", clip_input, {"language": language})
    except WalletCallError as exc:  # NoPairing, WalletOffline, WalletDeclined, WalletTimeout, ...
        # The page learns only that the wallet did not answer (specs/byoa-sites.md); the log, which.
        logger.info("geography: own mode, the wallet's transcript failed: %s", type(exc).__name__)
        return None
    text = output.get("text")
    return text if isinstance(text, str) else None


@require_POST
async def language(request):
    """Answer in another language from now on (same question, same score)."""
    state = await _state(request)
    try:
        state = game.with_language(state, _field(request, "language"))
    except (BadAnswer, UnknownLanguage) as exc:
        return await _reply(request, {"error": exc.code, "message": str(exc)}, 400)
    await request.session.aset(game.SESSION_KEY, state)
    return await _reply(request, with_pictures(game.progress(state)))


@require_POST
async def new_game(request):
    """Start a new game in the same language."""
    state = game.new_game((await _state(request))["language"])
    await request.session.aset(game.SESSION_KEY, state)
    return await _reply(request, with_pictures(game.progress(state)))
