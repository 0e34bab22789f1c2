"""
After a link connects, the page that asked sees which wallet came (GET
/byoa/wait) and can end that pairing (POST /byoa/disconnect): its own
session's only, CSRF-protected, revoking the pairing and closing its
connection with bye, and never a code or a token in an answer.
"""

import json
from urllib.parse import parse_qsl, urlsplit

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient

from byoa.models import Pairing
from byoa.pairing import tokens
from tests.byoa.conftest import hello

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def public_endpoint(settings):
    settings.BYOA = {**settings.BYOA, "ENDPOINT": "wss://game.example.org/byoa/ws"}  # as a deployment sets it


async def linked(wallet_socket, client):
    """Open a link from ``client``'s page and connect a wallet with its code; return (wait id, code, socket, token)."""
    answer = (await client.post("/byoa/code", {"manifest": "geo"})).json()
    code = dict(parse_qsl(urlsplit(answer["link"]).query))["session"]
    wallet, _connected = await wallet_socket()
    await wallet.send_json_to(hello(session=code))
    token = (await wallet.receive_json_from(timeout=5))["pairing"]
    return answer["session"], code, wallet, token


async def pairing_status(token):
    return (await database_sync_to_async(Pairing.objects.get)(token_digest=tokens.digest(token))).status


async def test_the_page_that_asked_sees_the_wallets_name_once_it_connects(wallet_socket):
    page = AsyncClient()
    wait_id, _code, _wallet, _token = await linked(wallet_socket, page)
    answer = (await page.get("/byoa/wait", {"session": wait_id})).json()
    assert answer == {"state": "connected", "wallet": "test wallet", "active": True}
    assert (await AsyncClient().get("/byoa/wait", {"session": wait_id})).json() == {"state": "expired"}


async def test_the_page_ends_its_own_pairing_and_the_wallet_gets_bye(wallet_socket):
    page = AsyncClient()
    wait_id, code, wallet, token = await linked(wallet_socket, page)
    response = await page.post(
        "/byoa/disconnect", json.dumps({"session": wait_id}), content_type="application/json"
    )
    assert response.status_code == 200 and response.json() == {"state": "disconnected"}
    assert code not in response.text and token not in response.text
    assert await wallet.receive_json_from(timeout=5) == {"type": "bye"}
    assert await pairing_status(token) == Pairing.Status.REVOKED
    assert (await page.get("/byoa/wait", {"session": wait_id})).json()["active"] is False


async def test_another_browser_session_cannot_end_the_pairing(wallet_socket):
    wait_id, _code, wallet, token = await linked(wallet_socket, AsyncClient())
    stranger = AsyncClient()
    await stranger.post("/byoa/code", {"manifest": "geo"})  # a session of its own, with a code of its own
    refused = await stranger.post("/byoa/disconnect", {"session": wait_id})
    assert refused.status_code == 404 and refused.json()["error"] == "not-found"
    assert await pairing_status(token) == Pairing.Status.ACTIVE
    assert await wallet.receive_nothing(timeout=0.5)


async def test_disconnect_needs_the_pages_csrf_token(wallet_socket):
    page = AsyncClient(enforce_csrf_checks=True)
    await page.get("/geography/")  # the CSRF cookie, as the page has it
    csrf = page.cookies["csrftoken"].value
    answer = (await page.post("/byoa/code", {"manifest": "geo"}, headers={"X-CSRFToken": csrf})).json()
    assert (await page.post("/byoa/disconnect", {"session": answer["session"]})).status_code == 403
    assert (
        await page.post("/byoa/disconnect", {"session": answer["session"]}, headers={"X-CSRFToken": csrf})
    ).status_code == 404  # no wallet came
