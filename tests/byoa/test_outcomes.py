"""
A site's view calls a wallet and tells each outcome apart by its type (issue 37).

The view below is written as a demo's would be: one ``except`` per outcome
it cares about, a log line naming which, and its own answer otherwise. Each
case arranges one outcome with a real consumer (WebsocketCommunicator as the
wallet), and runs with the caller beside the connection and, as a caller in
another process sees it, through the database and the channel layer.
"""

import asyncio
import json
import logging
import uuid

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpRequest, JsonResponse
from django.test import RequestFactory

from byoa import (
    CallRefused,
    NoPairing,
    TooManyCalls,
    WalletCallError,
    WalletDeclined,
    WalletLeft,
    WalletOffline,
    WalletProcessGone,
    WalletTimeout,
    aget_pairing,
    call_wallet,
    clock,
)
from byoa.models import Pairing
from byoa.pairing import visitor_ids
from tests.byoa.conftest import pair

pytestmark = pytest.mark.django_db(transaction=True)

CLIP = {"audio": {"mime": "audio/wav", "base64": "UklGRg=="}}
VISITOR = "visitor-a"  # the browser session tests.byoa.conftest.pair's code belongs to

logger = logging.getLogger("tests.byoa.view")


async def answer_view(request: HttpRequest) -> JsonResponse:
    """A demo's view: the wallet's words when it gives them, else its own, saying why once in the log."""
    pairing = await aget_pairing(request, "geo")
    timeout = float(request.GET.get("timeout", "5"))
    try:
        output = await call_wallet(pairing, "audio.transcribe", CLIP, timeout=timeout)
    except NoPairing:
        outcome = "no pairing"
    except WalletOffline:
        outcome = "offline"
    except TooManyCalls:  # before CallRefused, its base: worth a retry later
        outcome = "over the limit"
    except CallRefused:
        outcome = "outside the grant"
    except WalletDeclined:
        outcome = "ok: false"
    except WalletTimeout:
        outcome = "timeout"
    except WalletLeft:
        outcome = "gone mid-call"
    except WalletProcessGone:
        outcome = "process gone"
    else:
        return JsonResponse({"outcome": "output", "text": output["text"]})
    logger.info("own mode: %s", outcome)
    return JsonResponse({"outcome": outcome})


@pytest.fixture(params=["same-process", "channel-layer"])
def call_path(request):
    """Run each case with the caller beside the connection, then as if in another process."""
    if request.param == "channel-layer":
        request.getfixturevalue("caller_elsewhere")
    return request.param


async def a_request(visitor=VISITOR, timeout=5):
    request = RequestFactory().get("/answer", {"timeout": timeout})
    request.session = SessionStore()
    if visitor is not None:
        await request.session.aset(visitor_ids.SESSION_KEY, visitor)
    return request


async def outcome_of(view_call):
    response = await asyncio.wait_for(view_call, 10)
    return json.loads(response.content)["outcome"]


async def no_pairing(wallet_socket):
    return await outcome_of(answer_view(await a_request(visitor=None)))


async def offline(wallet_socket):
    wallet, _welcome = await pair(wallet_socket)
    await wallet.disconnect()
    return await outcome_of(answer_view(await a_request()))


async def outside_the_grant(wallet_socket):
    wallet, _welcome = await pair(wallet_socket, minutes=-1)  # the grant expired a minute ago
    outcome = await outcome_of(answer_view(await a_request()))
    assert await wallet.receive_nothing(timeout=0.1)
    return outcome


async def over_the_limit(wallet_socket):
    wallet, _welcome = await pair(wallet_socket, limits={"maxParallelCalls": 1})
    held = asyncio.ensure_future(answer_view(await a_request()))
    call = await wallet.receive_json_from(timeout=5)
    outcome = await outcome_of(answer_view(await a_request()))
    assert await wallet.receive_nothing(timeout=0.1)  # the wallet never saw the second call
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "Peru"}})
    assert await outcome_of(held) == "output"
    return outcome


async def declined(wallet_socket):
    wallet, _welcome = await pair(wallet_socket)
    view = asyncio.ensure_future(answer_view(await a_request()))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": False})
    return await outcome_of(view)


async def timeout(wallet_socket):
    wallet, _welcome = await pair(wallet_socket)
    view = asyncio.ensure_future(answer_view(await a_request(timeout=0.2)))
    await wallet.receive_json_from(timeout=5)  # and no result
    return await outcome_of(view)


async def gone_mid_call(wallet_socket):
    wallet, _welcome = await pair(wallet_socket)
    view = asyncio.ensure_future(answer_view(await a_request()))
    await wallet.receive_json_from(timeout=5)
    await wallet.disconnect(code=1006)
    return await outcome_of(view)


async def process_gone(wallet_socket):
    def a_pairing_whose_process_died():
        # Its process was killed: the pairing still names its connection's channel, which nobody reads.
        now = clock.now()
        Pairing.objects.create(
            token_digest="d-killed",
            visitor=VISITOR,
            manifest_name="geo",
            channel_name=f"specific.{uuid.uuid4().hex}!{uuid.uuid4().hex}",
            created_at=now,
            last_seen=now,
        )

    await database_sync_to_async(a_pairing_whose_process_died)()
    # Nothing comes back: the call ends at its deadline and the grace after it.
    return await outcome_of(answer_view(await a_request(timeout=0.3)))


async def the_output(wallet_socket):
    wallet, _welcome = await pair(wallet_socket)
    view = asyncio.ensure_future(answer_view(await a_request()))
    call = await wallet.receive_json_from(timeout=5)
    await wallet.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {"text": "Peru"}})
    return await outcome_of(view)


@pytest.mark.parametrize(
    ("arrange", "outcome"),
    [
        (no_pairing, "no pairing"),
        (offline, "offline"),
        (outside_the_grant, "outside the grant"),
        (over_the_limit, "over the limit"),
        (declined, "ok: false"),
        (timeout, "timeout"),
        (gone_mid_call, "gone mid-call"),
    ],
)
async def test_a_view_tells_each_outcome_of_a_call_apart_by_its_type_and_logs_it_once(
    arrange, outcome, wallet_socket, call_path, caplog
):
    with caplog.at_level(logging.INFO, logger="tests.byoa.view"):
        assert await arrange(wallet_socket) == outcome
    assert [r.getMessage() for r in caplog.records if r.name == "tests.byoa.view"] == [f"own mode: {outcome}"]


async def test_a_view_tells_a_process_gone_by_its_type(wallet_socket, caplog):
    with caplog.at_level(logging.INFO, logger="tests.byoa.view"):
        assert await process_gone(wallet_socket) == "process gone"
    assert [r.getMessage() for r in caplog.records if r.name == "tests.byoa.view"] == [
        "own mode: process gone"
    ]


async def test_a_view_gets_the_output_when_the_wallet_gives_one(wallet_socket, call_path):
    assert await the_output(wallet_socket) == "output"


def test_every_outcome_is_a_wallet_call_error_under_byoa_error_with_a_raised_when_docstring():
    from byoa import ByoaError

    outcomes = [
        NoPairing,
        WalletOffline,
        CallRefused,
        TooManyCalls,
        WalletDeclined,
        WalletTimeout,
        WalletLeft,
        WalletProcessGone,
    ]
    assert issubclass(WalletCallError, ByoaError)
    for outcome in outcomes:
        assert issubclass(outcome, WalletCallError)
        assert outcome.__doc__.startswith("Raised when"), outcome
    assert issubclass(WalletTimeout, TimeoutError)  # as asyncio's own timeouts are


def test_no_outcome_message_carries_a_token_or_the_calls_content():
    messages = [
        str(NoPairing("audio.transcribe")),
        str(WalletOffline(7, "audio.transcribe")),
        str(CallRefused(7, "audio.transcribe")),
        str(TooManyCalls(7, "audio.transcribe")),
        str(WalletDeclined(7, "audio.transcribe")),
        str(WalletTimeout(7, "audio.transcribe", 20)),
        str(WalletLeft(7, "audio.transcribe")),
        str(WalletProcessGone(7, "audio.transcribe")),
    ]
    for message in messages:
        assert "UklGRg" not in message and "audio.transcribe" in message
    assert "timeout=" in messages[5] and "BYOA['CALL_SECONDS']" in messages[5]  # each names its fix
