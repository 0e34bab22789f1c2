"""
A caller in another process whose call reached the wallet, when the wallet's
process then stops answering (killed: nothing it would send arrives), ends at
the call's deadline and ``byoa.calls.GRACE_SECONDS`` after it with
``WalletProcessGone`` and detaches the pairing, so the next call is offline at
once; a connection that was alive after all attaches itself again on the
caller's touch, or at its next ping should the touch be lost too. When the
channel layer failed in the caller's process meanwhile (Redis restarting), the
pairing stays attached. A call to a process that answers waits for its result
until its deadline.
"""

import asyncio

import pytest
from channels.db import database_sync_to_async

from byoa import consumers, delivery, tokens
from byoa.calls import GRACE_SECONDS, call_wallet
from byoa.exceptions import WalletOffline, WalletProcessGone
from byoa.models import Pairing
from tests.byoa.conftest import pair
from tests.polling import until

pytestmark = pytest.mark.django_db(transaction=True)

get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))
CLIP = {"audio": {}}


async def paired_elsewhere(wallet_socket, caller_elsewhere):
    communicator, welcome = await pair(wallet_socket)
    return communicator, await get_pairing(token_digest=tokens.digest(welcome["pairing"]))


def silence_the_connections_process(monkeypatch):
    """From now on the connection's process neither sends nor handles an event, as after a kill."""

    async def lost(channel, event):
        return True  # sent, as far as it knows

    async def dead(self, event):
        pass

    monkeypatch.setattr(delivery, "send_event", lost)
    monkeypatch.setattr(consumers.WalletConsumer, "byoa_touch", dead)


async def test_a_call_whose_connections_process_stops_answering_ends_at_its_deadline_with_process_gone(
    wallet_socket, caller_elsewhere, monkeypatch
):
    communicator, pairing = await paired_elsewhere(wallet_socket, caller_elsewhere)
    loop = asyncio.get_running_loop()
    started = loop.time()
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=1))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"
    silence_the_connections_process(monkeypatch)
    with pytest.raises(WalletProcessGone):
        await asyncio.wait_for(caller, 10)
    assert loop.time() - started >= 1 + GRACE_SECONDS  # the connection's own "timeout" never came
    # The pairing is detached from the silent connection: the next call is not even sent.
    assert (await get_pairing(pk=pairing.pk)).channel_name == ""
    with pytest.raises(WalletOffline):
        await asyncio.wait_for(call_wallet(pairing, "audio.transcribe", CLIP, timeout=60), 5)
    assert await communicator.receive_nothing(timeout=0.1)


async def test_a_live_connection_detached_by_a_caller_attaches_itself_again_at_its_next_ping(
    wallet_socket, caller_elsewhere, monkeypatch
):
    monkeypatch.setattr(consumers, "TOUCH_SECONDS", 0)  # every ping touches: no minute to wait here
    communicator, pairing = await paired_elsewhere(wallet_socket, caller_elsewhere)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=1))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"
    with monkeypatch.context() as lost_for_a_while:
        silence_the_connections_process(lost_for_a_while)
        with pytest.raises(WalletProcessGone):
            await asyncio.wait_for(caller, 10)
    assert (await get_pairing(pk=pairing.pk)).channel_name == ""
    await communicator.send_json_to({"type": "ping"})
    async with asyncio.timeout(5):
        await until(lambda: get_pairing(pk=pairing.pk), lambda row: row.channel_name != "")
    assert (await get_pairing(pk=pairing.pk)).channel_name == delivery.connections[pairing.pk].channel_name
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": "ok"}}
    )
    assert await asyncio.wait_for(caller, 5) == {"text": "ok"}


async def test_a_call_to_a_process_that_answers_waits_for_its_result_past_the_grace(
    wallet_socket, caller_elsewhere
):
    communicator, pairing = await paired_elsewhere(wallet_socket, caller_elsewhere)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=60))
    call = await communicator.receive_json_from(timeout=5)
    # Longer than the grace: nothing but the deadline ends a call its connection holds.
    assert await communicator.receive_nothing(timeout=GRACE_SECONDS + 0.5)
    assert not caller.done()
    await communicator.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": "ok"}}
    )
    assert await asyncio.wait_for(caller, 10) == {"text": "ok"}


async def test_a_live_connection_detached_by_a_caller_attaches_itself_again_on_the_callers_touch(
    wallet_socket, caller_elsewhere, monkeypatch
):
    communicator, pairing = await paired_elsewhere(wallet_socket, caller_elsewhere)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=1))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"

    async def result_lost(channel, event):
        return True  # the layer lost the connection's answer; the connection itself lives

    with monkeypatch.context() as lost_once:
        lost_once.setattr(delivery, "send_event", result_lost)
        with pytest.raises(WalletProcessGone):
            await asyncio.wait_for(caller, 10)
    async with asyncio.timeout(5):  # no ping needed: the caller's touch reached it
        await until(lambda: get_pairing(pk=pairing.pk), lambda row: row.channel_name != "")
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    call = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": "ok"}}
    )
    assert await asyncio.wait_for(caller, 5) == {"text": "ok"}


async def test_a_call_unheard_while_the_layer_failed_here_leaves_the_pairing_attached(
    wallet_socket, caller_elsewhere, monkeypatch
):
    communicator, pairing = await paired_elsewhere(wallet_socket, caller_elsewhere)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=1))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"
    silence_the_connections_process(monkeypatch)
    delivery.replies.failed_at = asyncio.get_running_loop().time()  # a send failed here: Redis, say
    with pytest.raises(WalletProcessGone):
        await asyncio.wait_for(caller, 10)
    assert (await get_pairing(pk=pairing.pk)).channel_name != ""  # not taken for a dead process
