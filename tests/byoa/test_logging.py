"""No session code, pairing token or call content is ever logged: in process, and by daphne."""

import asyncio
import logging
from urllib.parse import parse_qsl, urlsplit

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient

from byoa.calls import call_wallet, stream_wallet
from byoa.consumers import WalletConsumer
from byoa.models import Pairing
from byoa.pairing import tokens
from tests.byoa.conftest import hello
from testwallet.direct import Consent

SECRET_INPUT = "input-the-visitor-said-zanzibar"
SECRET_OUTPUT = "output-the-model-said-timbuktu"


@pytest.mark.django_db(transaction=True)
async def test_the_whole_flow_in_process_logs_no_code_token_or_content(caplog, settings):
    settings.BYOA = {**settings.BYOA, "ENDPOINT": "wss://game.example.org/byoa/ws"}  # as a deployment sets it
    caplog.set_level(logging.DEBUG)
    client = AsyncClient()
    answer = (await client.post("/byoa/code")).json()
    code = dict(parse_qsl(urlsplit(answer["link"]).query))["session"]
    assert (await client.get("/byoa/wait", {"session": answer["session"]})).json()["state"] == "waiting"
    wallet = WebsocketCommunicator(WalletConsumer.as_asgi(), "/byoa/ws")
    await wallet.connect()
    await wallet.send_json_to(hello(session=code))
    token = (await wallet.receive_json_from(timeout=5))["pairing"]
    pairing = await database_sync_to_async(Pairing.objects.get)(token_digest=tokens.digest(token))
    caller = asyncio.ensure_future(
        call_wallet(pairing, "audio.transcribe", {"text": SECRET_INPUT}, timeout=5)
    )
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": SECRET_OUTPUT}}
    )
    assert (await caller)["text"] == SECRET_OUTPUT
    stream = stream_wallet(pairing, "audio.transcribe", {"text": SECRET_INPUT}, timeout=5)
    reader = asyncio.ensure_future(anext(aiter(stream), None))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "chunk", "id": call["id"], "delta": SECRET_OUTPUT})
    assert await reader == SECRET_OUTPUT
    await wallet.send_json_to({"type": "bye"})
    await wallet.receive_output(5)
    await wallet.disconnect()
    assert caplog.records, "the flow should log something, or this test proves nothing"
    for secret in (code, token, SECRET_INPUT, SECRET_OUTPUT):
        assert secret not in caplog.text


@pytest.mark.live
async def test_the_whole_flow_on_daphne_logs_no_code_token_or_content(
    caplog, visitor, direct_wallet, byoa_server
):
    caplog.set_level(logging.DEBUG)
    link = (await visitor.new_link())["link"]
    code = dict(parse_qsl(urlsplit(link).query))["session"]
    wallet = await direct_wallet(
        link,
        {"audio.transcribe": lambda input, params: {"text": SECRET_OUTPUT}},
        consent=Consent.DECIDE_ON_MY_OWN,
    )
    assert wallet.opened and wallet.pairing
    from tests.byoa.test_direct_link import clip

    result = await visitor.call("audio.transcribe", clip(), {"hint": SECRET_INPUT})
    assert result["output"]["text"] == SECRET_OUTPUT
    await wallet.close()
    logged = caplog.text + "\n".join(wallet.activity) + byoa_server.output()
    assert "POST /byoa/code" in byoa_server.output()
    for secret in (code, wallet.pairing, SECRET_INPUT, SECRET_OUTPUT):
        assert secret not in logged
