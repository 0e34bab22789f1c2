"""byoa.signing: every event between processes carries a MAC, and one without a valid MAC is dropped."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from byoa import events, protocol, signing, tokens
from byoa.calls import call_wallet
from byoa.models import Pairing
from byoa.transport import addressed
from tests.byoa.conftest import pair

CALL = events.call("byoa.reply!x", "audio.transcribe", {"language": "en"}, '{"audio":{}}', 5.0)


def test_a_signed_event_verifies_and_comes_back_without_its_mac():
    signed = signing.sign_event(CALL)
    assert signed[signing.MAC_FIELD]
    assert signing.verified_event(signed) == CALL


@pytest.mark.parametrize(
    "change",
    [
        {"skill": "text.generate"},
        {"input": '{"messages":[]}'},
        {"params": {}},
        {"reply": "byoa.elsewhere!y"},
        {"mac": "0" * 64},
        {"mac": None},
        {"mac": "not hex é"},
    ],
)
def test_an_event_changed_after_signing_is_refused(change):
    assert signing.verified_event({**signing.sign_event(CALL), **change}) is None


def test_an_event_without_a_mac_is_refused():
    assert signing.verified_event(CALL) is None


def test_an_event_signed_with_another_secret_key_is_refused(settings):
    signed = signing.sign_event(CALL)
    settings.SECRET_KEY = "another key " * 5
    assert signing.verified_event(signed) is None


def test_an_event_signed_with_a_fallback_key_is_accepted(settings):
    signed = signing.sign_event(CALL)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the new key " * 5
    assert signing.verified_event(signed) == CALL


def test_sealed_bytes_unseal_and_changed_ones_do_not():
    sealed = signing.seal(b'{"type":"byoa.result"}')
    assert signing.unseal(sealed) == b'{"type":"byoa.result"}'
    assert signing.unseal(sealed[:-1] + b"!") is None
    assert signing.unseal(b'{"type":"byoa.result"}') is None
    assert signing.unseal(b"") is None


# The channel layer: a forger who reaches it (Redis, in a deployment) and knows the addresses.

pytestmark_db = pytest.mark.django_db(transaction=True)
get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))


def to_connection(address, event, sign=signing.sign_event):
    """Return (channel, event) that reach the connection at ``address``, the event signed as addressed."""
    channel, addressed_event = addressed(address, event)
    return channel, sign(addressed_event)


async def paired_elsewhere(wallet_socket, monkeypatch, hub):
    """Return (communicator, pairing) of a wallet that callers reach over the channel layer."""
    communicator, welcome = await pair(wallet_socket)
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    await hub.start()
    monkeypatch.setattr(hub.connections, "get", lambda pairing_id: None)  # as if the caller were elsewhere
    return communicator, pairing


@pytestmark_db
@pytest.mark.parametrize("sign", [False, True], ids=["unsigned", "signed-with-another-key"])
async def test_a_forged_call_event_on_the_inbox_reaches_no_wallet(
    wallet_socket, monkeypatch, hub, settings, sign
):
    communicator, pairing = await paired_elsewhere(wallet_socket, monkeypatch, hub)
    layer = hub.transport.layer
    reply = await layer.new_channel("byoa")
    forged = events.call(reply, "audio.transcribe", {}, '{"audio":{}}', 5.0)
    if sign:
        real_key, settings.SECRET_KEY = settings.SECRET_KEY, "a key the forger guessed " * 3
        await layer.send(*to_connection(pairing.channel_name, forged))
        settings.SECRET_KEY = real_key
    else:
        await layer.send(*addressed(pairing.channel_name, forged))
    assert await communicator.receive_nothing(timeout=0.3)
    with pytest.raises(TimeoutError):  # not even acknowledged
        await asyncio.wait_for(layer.receive(reply), 0.3)
    # The same event with the site's own MAC is a call (so the test above could fail).
    await layer.send(*to_connection(pairing.channel_name, forged))
    assert (await communicator.receive_json_from(timeout=5))["skill"] == "audio.transcribe"


@pytestmark_db
async def test_a_forged_result_on_a_callers_channel_is_not_its_answer(wallet_socket, monkeypatch, hub):
    communicator, pairing = await paired_elsewhere(wallet_socket, monkeypatch, hub)
    layer = hub.transport.layer
    sent = []
    real_send = layer.send

    async def watch(channel, event):
        sent.append(event)
        await real_send(channel, event)

    monkeypatch.setattr(layer, "send", watch)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    call = await communicator.receive_json_from(timeout=5)
    reply_address = next(event["reply"] for event in sent if event.get("type") == events.CALL)
    # Where the caller's inbox takes its call's events: the caller's own reply address, unsigned.
    await real_send(*addressed(reply_address, events.result(True, {"text": "forged"}), "call"))
    await communicator.send_json_to(protocol.result(call["id"], True, {"text": "the wallet's"}))
    assert await asyncio.wait_for(caller, 5) == {"text": "the wallet's"}


@pytestmark_db
async def test_the_wallets_frame_is_built_from_the_skill_and_params_the_grant_was_checked_on(
    wallet_socket, monkeypatch, hub
):
    communicator, pairing = await paired_elsewhere(wallet_socket, monkeypatch, hub)
    layer = hub.transport.layer
    reply = await layer.new_channel("byoa")
    # An input that tries to carry a skill of its own: the frame's skill is still the checked one.
    event = events.call(reply, "audio.transcribe", {"language": "en"}, '{"skill":"text.generate"}', 5.0)
    await layer.send(*to_connection(pairing.channel_name, event))
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
