"""
A caller in another process whose call reached the wallet, when the wallet's
process then stops answering (killed: nothing it would send arrives), ends at
the call's deadline and ``byoa.calls.GRACE_SECONDS`` after it with
``WalletProcessGone``; nothing marks the pairing away, so a connection alive
after all (only its answer was lost) serves the next call. A call to a process
that answers waits for its result until its deadline.
"""

import asyncio

import pytest
from channels.db import database_sync_to_async

from byoa.calls import GRACE_SECONDS, call_wallet
from byoa.delivery import events
from byoa.exceptions import WalletProcessGone
from byoa.models import Pairing
from byoa.pairing import tokens
from tests.byoa.conftest import pair

pytestmark = pytest.mark.django_db(transaction=True)

get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))
CLIP = {"audio": {}}


async def paired_elsewhere(wallet_socket, caller_elsewhere):
    communicator, welcome = await pair(wallet_socket)
    return communicator, await get_pairing(token_digest=tokens.digest(welcome["pairing"]))


def silence_the_connections_process(monkeypatch):
    """From now on nothing the connection's process sends reaches the channel layer, as after a kill."""

    async def lost(channel, event):
        return True  # sent, as far as it knows

    monkeypatch.setattr(events, "send_event", lost)


async def test_a_call_whose_connections_process_stops_answering_ends_at_its_deadline_with_process_gone(
    wallet_socket, caller_elsewhere, monkeypatch
):
    communicator, pairing = await paired_elsewhere(wallet_socket, caller_elsewhere)
    loop = asyncio.get_running_loop()
    started = loop.time()
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=1))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "call"
    with monkeypatch.context() as lost_for_a_while:
        silence_the_connections_process(lost_for_a_while)
        with pytest.raises(WalletProcessGone):
            await asyncio.wait_for(caller, 10)
    assert loop.time() - started >= 1 + GRACE_SECONDS  # the connection's own "timeout" never came
    # Nothing marks the pairing away: the connection, alive after all, answers the next call.
    assert (await get_pairing(pk=pairing.pk)).channel_name == events.wallet_connections[
        pairing.pk
    ].channel_name
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
