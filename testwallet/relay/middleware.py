"""The by-hand test wallet switch, as middleware so that it works in sync and async views alike."""

from collections.abc import Awaitable, Callable
from typing import TypedDict, cast

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.urls import NoReverseMatch, reverse

from testwallet.relay.conf import relay_settings
from testwallet.relay.token import session_token

#: The cookie that keeps the choice: a cookie, not the session, so that a page view stores nothing.
COOKIE = "testwallet"


class RelayInfo(TypedDict):
    """What the stand-in scripts need to reach the relay (``request.testwallet_relay``)."""

    chat: str  # the chat route: a wallet chat in, the wallet's events out
    generate: str  # the text.generate route
    transcribe: str | None  # the transcription route, when a transcription server is named
    token: str  # this session's relay token
    csrf: str
    model: str  # who answers, as the banner says it
    modelName: str
    scripted: bool


class TestWalletRequest(HttpRequest):
    """A request once the middleware has run: what the base template reads."""

    testwallet: bool
    testwallet_relay: RelayInfo | None


class TestWalletMiddleware:
    """
    In DEBUG only: `?testwallet=1` injects the in-page test wallets
    (frontend/testwallet/) into the demo pages for someone browsing without an
    extension; `?testwallet=0` removes them. The choice sticks in a cookie.
    Sets `request.testwallet`, which the base template reads, and
    `request.testwallet_relay`: where the stand-ins reach the model (or the
    scripted player), this browser's relay token, and who answers. Without
    DEBUG it reads nothing; with it, it reads a cookie and stores no session.
    """

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(self.get_response):
            markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        marked = cast(TestWalletRequest, request)  # the same object, with the attributes set below
        marked.testwallet = False
        marked.testwallet_relay = None
        asked = request.GET.get("testwallet") if settings.DEBUG else None
        if settings.DEBUG:
            marked.testwallet = asked == "1" if asked in {"0", "1"} else request.COOKIES.get(COOKIE) == "1"
        marked.testwallet_relay = await relay_for(request) if marked.testwallet else None
        response = await self.get_response(request)
        if asked in {"0", "1"}:
            response.set_cookie(
                COOKIE, asked, httponly=True, samesite="Lax", secure=bool(settings.SESSION_COOKIE_SECURE)
            )
        return response


async def relay_for(request: HttpRequest) -> RelayInfo | None:
    """Return what the stand-in scripts need to reach the relay, or None when it is not routed."""
    try:
        chat = reverse("testwallet_relay:chat")
        generate = reverse("testwallet_relay:generate")
        transcribe = reverse("testwallet_relay:transcribe")
    except NoReverseMatch:
        return None  # DEBUG turned on after the URLs were loaded (a test's settings): the stand-ins echo
    conf = relay_settings()
    return {
        "chat": chat,
        "generate": generate,
        # With a cassette, clips go to the relay too: it answers from the recording, or says it has none.
        "transcribe": transcribe if conf.transcribe_url or conf.cassette else None,
        "token": await session_token(request),
        "csrf": get_token(request),
        "model": conf.label,
        "modelName": conf.model or ("scripted" if conf.scripted else "default"),
        "scripted": conf.scripted,
    }
