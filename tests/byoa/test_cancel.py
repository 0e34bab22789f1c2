"""
A caller that leaves mid-call (a page that closes its streamed answer, as
Twenty Questions' Stop does) frees the call's slot on the wallet connection at
once: the grant's maxParallelCalls counts it no more, and the wallet's late
result is dropped quietly (issue 40, item 10).
"""

import asyncio

import pytest
from channels.db import database_sync_to_async

from byoa import calls
from byoa.calls import call_wallet, stream_wallet
from byoa.delivery import events
from byoa.exceptions import TooManyCalls, WalletCallError
from byoa.models import Pairing
from byoa.pairing import tokens
from byoa.wire import protocol
from tests.byoa.conftest import pair
from tests.polling import until

pytestmark = pytest.mark.django_db(transaction=True)

get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))


async def test_a_closed_stream_frees_its_slot_at_once_and_its_late_result_is_dropped(wallet_socket):
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 1})
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    stream = stream_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60)
    deltas = aiter(stream)
    reading = asyncio.ensure_future(anext(deltas))
    first = await communicator.receive_json_from(timeout=5)
    reading.cancel()  # the page closed its stream: Django cancels the generator that reads it
    await asyncio.gather(reading, return_exceptions=True)
    await deltas.aclose()
    # The only slot is free: the next call reaches the wallet, not refused as over the limit.
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    second = await communicator.receive_json_from(timeout=5)
    assert second["id"] != first["id"]
    await communicator.send_json_to(protocol.result(first["id"], True, {"text": "late"}))  # dropped quietly
    await communicator.send_json_to(protocol.result(second["id"], True, {"text": "second"}))
    assert await asyncio.wait_for(caller, 10) == {"text": "second"}


async def test_a_caller_reached_over_the_channel_layer_that_leaves_frees_its_slot_at_once(
    wallet_socket, caller_elsewhere
):
    # The caller takes the connection for one in another process: the call and its cancel cross the layer.
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 1})
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60))
    first = await communicator.receive_json_from(timeout=5)
    caller.cancel()  # the request that made the call was cancelled (its client went away)
    await asyncio.gather(caller, return_exceptions=True)
    # The only slot is free once the cancel arrives: the next call reaches the wallet, not refused.
    second_caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    second = await communicator.receive_json_from(timeout=5)
    assert second["id"] != first["id"]
    await communicator.send_json_to(protocol.result(first["id"], True, {"text": "late"}))  # dropped quietly
    await communicator.send_json_to(protocol.result(second["id"], True, {"text": "second"}))
    assert await asyncio.wait_for(second_caller, 10) == {"text": "second"}


async def test_a_cancel_lost_on_the_way_leaves_the_call_to_end_at_its_deadline_as_before(
    wallet_socket, monkeypatch, caller_elsewhere
):
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 1, "maxCallSeconds": 1})
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))

    async def lose(channel, event):
        return True  # sent, as far as the caller knows: the layer lost it

    monkeypatch.setattr(calls, "send_event", lose)  # what the caller sends when it leaves: the cancel
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=1))
    first = await communicator.receive_json_from(timeout=5)
    caller.cancel()
    await asyncio.gather(caller, return_exceptions=True)
    with pytest.raises(TooManyCalls):  # the slot is still taken: nothing told the connection
        await call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=5)
    # The connection's own timer ends it: after the deadline and the grant's maxCallSeconds, the slot is free.
    second_caller = asyncio.ensure_future(until(lambda: outcome(pairing), lambda got: got != "TooManyCalls"))
    second = await communicator.receive_json_from(timeout=10)
    assert second["id"] != first["id"]
    await communicator.send_json_to(protocol.result(second["id"], True, {"text": "second"}))
    assert await asyncio.wait_for(second_caller, 10) == {"text": "second"}


async def outcome(pairing):
    """Make a call; return its output, or the class name of what it raised."""
    try:
        return await call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=5)
    except WalletCallError as exc:
        return type(exc).__name__


async def test_a_caller_cancelled_while_its_call_goes_out_frees_its_slot_at_once(wallet_socket):
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 1})
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    connection = events.wallet_connections[pairing.pk]
    sending, send_frame = asyncio.Event(), connection._send_frame

    async def stuck(text):  # the socket's send does not return: the caller is cancelled meanwhile
        sending.set()
        await asyncio.Event().wait()

    connection._send_frame = stuck
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60))
    await asyncio.wait_for(sending.wait(), 5)
    caller.cancel()
    await asyncio.gather(caller, return_exceptions=True)
    assert len(connection.calls) == 0  # its slot is free: nothing waits for the wallet's answer
    connection._send_frame = send_frame
    second = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    frame = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to(protocol.result(frame["id"], True, {"text": "second"}))
    assert await asyncio.wait_for(second, 10) == {"text": "second"}


async def test_a_caller_in_another_process_cancelled_once_its_call_went_frees_its_slot(
    wallet_socket, monkeypatch, caller_elsewhere
):
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 1})
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    sent, send_event = asyncio.Event(), events.send_event

    async def sent_then_stuck(channel, event):  # the call event goes; the send does not return
        went = await send_event(channel, event)
        if event["type"] == "byoa.call":
            sent.set()
            await asyncio.Event().wait()
        return went

    monkeypatch.setattr(events, "send_event", sent_then_stuck)
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=60))
    first = await communicator.receive_json_from(timeout=5)
    await asyncio.wait_for(sent.wait(), 5)
    caller.cancel()
    await asyncio.gather(caller, return_exceptions=True)
    monkeypatch.setattr(events, "send_event", send_event)
    # The cancel reached the connection: the next call is not refused as over the limit.
    second_caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"audio": {}}, timeout=10))
    second = await communicator.receive_json_from(timeout=5)
    assert second["id"] != first["id"]
    await communicator.send_json_to(protocol.result(second["id"], True, {"text": "second"}))
    assert await asyncio.wait_for(second_caller, 10) == {"text": "second"}
