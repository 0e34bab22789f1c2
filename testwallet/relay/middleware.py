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

SESSION_KEY = "testwallet"


class RelayInfo(TypedDict):
    """What the stand-in scripts need to reach the relay (``request.testwallet_relay``)."""

    chat: str  # the chat route
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
    (frontend/testwallet/) into the site's pages for someone browsing without an
    extension; `?testwallet=0` removes them. The choice sticks for the session.
    Sets `request.testwallet`, which the base template reads, and
    `request.testwallet_relay`: where the stand-ins reach the model (or the
    scripted player), this session's relay token, and who answers. Without
    DEBUG it reads nothing; with it, a page view stores a session only once the
    visitor has asked for the test wallet.
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
        if settings.DEBUG:
            asked = request.GET.get("testwallet")
            if asked == "1":
                await request.session.aset(SESSION_KEY, True)
            elif asked == "0":
                # A pop marks the session changed only when the key was there: turning the
                # test wallet off stores no session for a visitor who never turned it on.
                await request.session.apop(SESSION_KEY, None)
            marked.testwallet = await request.session.aget(SESSION_KEY, False)
        marked.testwallet_relay = await relay_for(request) if marked.testwallet else None
        return await self.get_response(request)


async def relay_for(request: HttpRequest) -> RelayInfo | None:
    """Return what the stand-in scripts need to reach the relay, or None when it is not routed."""
    try:
        chat = reverse("testwallet_relay:chat")
        transcribe = reverse("testwallet_relay:transcribe")
    except NoReverseMatch:
        return None  # DEBUG turned on after the URLs were loaded (a test's settings): the stand-ins echo
    conf = relay_settings()
    return {
        "chat": chat,
        "transcribe": transcribe if conf.transcribe_url else None,
        "token": await session_token(request.session),
        "csrf": get_token(request),
        "model": conf.label,
        "modelName": conf.model or ("scripted" if conf.scripted else "default"),
        "scripted": conf.scripted,
    }
