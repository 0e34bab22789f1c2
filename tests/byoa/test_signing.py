"""byoa.delivery.signing: every event between processes carries a MAC, and one without a valid MAC is dropped."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from byoa.calls import call_wallet
from byoa.delivery import events, signing
from byoa.exceptions import TooManyCalls
from byoa.models import Pairing
from byoa.pairing import tokens
from byoa.wire import protocol
from tests.byoa.conftest import pair

CALL = {
    "type": "byoa.call",
    "id": 7,
    "reply": "specific.caller!reply",
    "skill": "audio.transcribe",
    "params": {"language": "en"},
    "input": '{"audio":{}}',
    "timeout": 5.0,
}


TO = "specific.wallet!connection"


def test_a_signed_event_verifies_and_comes_back_without_its_mac():
    signed = signing.sign_event(CALL, TO)
    assert signed[signing.MAC_FIELD]
    assert signing.verified_event(signed, TO) == CALL


def test_an_event_signed_for_one_channel_is_refused_on_another():
    assert signing.verified_event(signing.sign_event(CALL, TO), "specific.wallet!another") is None


@pytest.mark.parametrize(
    "change",
    [
        {"skill": "text.generate"},
        {"input": '{"messages":[]}'},
        {"params": {}},
        {"reply": "specific.elsewhere!y"},
        {"id": 8},
        {"timeout": 500.0},
        {"mac": "0" * 64},
        {"mac": None},
        {"mac": "not hex é"},
    ],
)
def test_an_event_changed_after_signing_is_refused(change):
    assert signing.verified_event({**signing.sign_event(CALL, TO), **change}, TO) is None


def test_an_event_without_a_mac_is_refused():
    assert signing.verified_event(CALL, TO) is None


def test_an_event_signed_with_another_secret_key_is_refused(settings):
    signed = signing.sign_event(CALL, TO)
    settings.SECRET_KEY = "another key " * 5
    assert signing.verified_event(signed, TO) is None


def test_an_event_signed_with_a_fallback_key_is_accepted(settings):
    signed = signing.sign_event(CALL, TO)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the new key " * 5
    assert signing.verified_event(signed, TO) == CALL


# The channel layer: a forger who reaches it (Redis, in a deployment) and knows the channel names.

pytestmark_db = pytest.mark.django_db(transaction=True)
get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))
FORGERIES = pytest.mark.parametrize(
    "forge", ["unsigned", "signed-with-another-key", "signed-for-another-channel"]
)


def forged(event, to, forge, settings):
    """Return the event as a forger sends it to ``to``: without a MAC, with one made with a key of its
    own, or with the site's MAC of an event it read on another channel."""
    if forge == "unsigned":
        return dict(event)
    if forge == "signed-for-another-channel":
        return signing.sign_event(event, "specific.another!channel")
    real_key, settings.SECRET_KEY = settings.SECRET_KEY, "a key the forger guessed " * 3
    try:
        return signing.sign_event(event, to)
    finally:
        settings.SECRET_KEY = real_key


async def paired_elsewhere(wallet_socket, **grant_options):
    """Return (communicator, pairing) of a wallet that callers reach over the channel layer."""
    communicator, welcome = await pair(wallet_socket, **grant_options)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    return communicator, pairing


@pytestmark_db
@FORGERIES
async def test_a_forged_call_event_on_a_connections_channel_reaches_no_wallet(wallet_socket, settings, forge):
    communicator, pairing = await paired_elsewhere(wallet_socket)
    layer = get_channel_layer()
    reply = await layer.new_channel()
    event = {**CALL, "reply": reply}
    await layer.send(pairing.channel_name, forged(event, pairing.channel_name, forge, settings))
    assert await communicator.receive_nothing(timeout=0.3)
    with pytest.raises(TimeoutError):  # not even refused: nothing at all comes back
        await asyncio.wait_for(layer.receive(reply), 0.3)
    # The same event with the site's own MAC is a call (so the test above could fail).
    await layer.send(pairing.channel_name, signing.sign_event(event, pairing.channel_name))
    assert (await communicator.receive_json_from(timeout=5))["skill"] == "audio.transcribe"


@pytestmark_db
@FORGERIES
async def test_a_forged_close_event_does_not_close_the_connection(wallet_socket, settings, forge):
    communicator, pairing = await paired_elsewhere(wallet_socket)
    layer = get_channel_layer()
    await layer.send(
        pairing.channel_name, forged({"type": "byoa.close"}, pairing.channel_name, forge, settings)
    )
    assert await communicator.receive_nothing(timeout=0.3)
    await layer.send(pairing.channel_name, signing.sign_event({"type": "byoa.close"}, pairing.channel_name))
    assert await communicator.receive_json_from(timeout=5) == protocol.bye()


@pytestmark_db
@FORGERIES
async def test_a_forged_cancel_event_does_not_free_a_calls_slot(
    wallet_socket, settings, forge, caller_elsewhere
):
    communicator, pairing = await paired_elsewhere(wallet_socket, limits={"maxParallelCalls": 1})
    layer = get_channel_layer()
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    call = await communicator.receive_json_from(timeout=5)
    await layer.send(
        pairing.channel_name,
        forged({"type": "byoa.cancel", "id": call["id"]}, pairing.channel_name, forge, settings),
    )
    # The next call comes on the same channel, after the cancel: the first call still holds the slot.
    with pytest.raises(TooManyCalls):
        await call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10)
    await communicator.send_json_to(protocol.result(call["id"], True, {"text": "the wallet's"}))
    assert await asyncio.wait_for(caller, 5) == {"text": "the wallet's"}


@pytestmark_db
@FORGERIES
async def test_a_forged_result_on_the_reply_channel_is_no_callers_answer(
    wallet_socket, settings, forge, caller_elsewhere
):
    communicator, pairing = await paired_elsewhere(wallet_socket)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    call = await communicator.receive_json_from(timeout=5)
    # The caller's process reads its call's events on its reply channel, by the call's id.
    result = {"type": "byoa.result", "id": call["id"], "ok": True, "output": {"text": "forged"}}
    reply = await events.replies.channel()
    await get_channel_layer().send(reply, forged(result, reply, forge, settings))
    # The wallet's result comes on the same channel after it: had the forged one counted, it would have won.
    await communicator.send_json_to(protocol.result(call["id"], True, {"text": "the wallet's"}))
    assert await asyncio.wait_for(caller, 5) == {"text": "the wallet's"}


@pytestmark_db
async def test_the_wallets_frame_is_built_from_the_skill_and_params_the_grant_was_checked_on(wallet_socket):
    communicator, pairing = await paired_elsewhere(wallet_socket)
    layer = get_channel_layer()
    # An input that tries to carry a skill of its own: the frame's skill is still the checked one.
    event = {**CALL, "reply": await layer.new_channel(), "input": '{"skill":"text.generate"}'}
    await layer.send(pairing.channel_name, signing.sign_event(event, pairing.channel_name))
    call = await communicator.receive_json_from(timeout=5)
    assert (call["skill"], call["params"], call["input"]) == (
        "audio.transcribe",
        {"language": "en"},
        {"skill": "text.generate"},
    )


@pytestmark_db
async def test_wire_call_ids_are_random(wallet_socket, settings):
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    ids = []
    for _ in range(3):
        caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
        call = await communicator.receive_json_from(timeout=5)
        ids.append(call["id"])
        await communicator.send_json_to(protocol.result(call["id"], True, {"text": "ok"}))
        await caller
    assert len(set(ids)) == 3 and max(ids) > 2**20
