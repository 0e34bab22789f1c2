"""
The docs' example of testing a view that calls the visitor's wallet in the test's own process
(docs/howto/ci.md, "A view that calls the wallet, in process"): the page asks for a link with
Django's test client, a WebsocketCommunicator plays the wallet, and the test answers the call.
"""

import asyncio
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlsplit

import pytest
from channels.testing import WebsocketCommunicator
from django.http import JsonResponse
from django.test import AsyncClient
from django.urls import include, path

from byoa import WalletCallError, aget_pairing, call_wallet
from byoa.consumers import WalletConsumer
from byoa.wire.protocol import hello


async def hear(request):
    """A view of the site: the visitor's wallet turns the clip into text, or the view says why not."""
    pairing = await aget_pairing(request, "geography")
    clip = {"audio": {"mime": "audio/wav", "base64": request.POST["clip"]}}
    try:
        output = await call_wallet(pairing, "audio.transcribe", clip, {"language": "en"}, timeout=5)
    except WalletCallError as error:
        return JsonResponse({"text": None, "why": type(error).__name__})
    return JsonResponse({"text": output.get("text")})


urlpatterns = [path("byoa/", include("byoa.urls")), path("hear", hear)]


@pytest.mark.urls(__name__)
@pytest.mark.django_db(transaction=True)
async def test_the_view_answers_with_what_the_wallet_heard(settings):
    settings.BYOA = {"ENDPOINT": "wss://shop.example.com/byoa/ws"}  # the links' endpoint, as deployed
    browser = AsyncClient()  # keeps the session cookie: the pairing is this browser's
    link = (await browser.post("/byoa/code", {"manifest": "geography"})).json()["link"]
    wallet = WebsocketCommunicator(WalletConsumer.as_asgi(), "/byoa/ws")
    await wallet.connect()
    expires = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    code = dict(parse_qsl(urlsplit(link).query))["session"]
    grant = {"skills": ["audio.transcribe"], "expiresAt": expires}
    await wallet.send_json_to(hello(code, None, {"name": "test wallet", "version": "0.1"}, grant))
    assert (await wallet.receive_json_from(timeout=5))["type"] == "welcome"

    answer = asyncio.ensure_future(browser.post("/hear", {"clip": "UklGRg=="}))
    call = await wallet.receive_json_from(timeout=5)  # the view's call, as the wallet gets it
    assert (call["skill"], call["params"]) == ("audio.transcribe", {"language": "en"})
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "Peru"}})
    assert (await answer).json() == {"text": "Peru"}

    await wallet.disconnect()  # the wallet goes: the next call is answered in the view's own way
    assert (await browser.post("/hear", {"clip": "UklGRg=="})).json() == {
        "text": None,
        "why": "WalletOffline",
    }
