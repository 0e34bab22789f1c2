"""
How a call from another process travels (byoa.delivery.events), on Channels'
in-memory layer with the consumer behind a WebsocketCommunicator and the
caller's same-process shortcut patched away: the caller's process reads every
call's events on one reply channel, nothing stays registered there once its
calls end however they end, and a caller that leaves frees the call's slot at
once (``byoa.cancel``).
"""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from byoa.calls import call_wallet
from byoa.delivery import events
from byoa.exceptions import WalletProcessGone, WalletTimeout
from byoa.models import Pairing
from byoa.pairing import tokens
from tests.byoa.conftest import pair

pytestmark = pytest.mark.django_db(transaction=True)

get_pairing = database_sync_to_async(lambda **kw: Pairing.objects.get(**kw))
CLIP = {"audio": {}}


@pytest.fixture
def layer(settings):
    """A new in-memory channel layer for the test: the reply channel is opened on it afresh."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return get_channel_layer()


async def paired_elsewhere(wallet_socket, **grant_options):
    communicator, welcome = await pair(wallet_socket, **grant_options)
    return communicator, await get_pairing(token_digest=tokens.digest(welcome["pairing"]))


def count_new_channels(layer, monkeypatch):
    """Return a list that gets one item per channel the layer opens from now on."""
    opened = []
    real_new_channel = layer.new_channel

    async def new_channel(*args, **kwargs):
        name = await real_new_channel(*args, **kwargs)
        opened.append(name)
        return name

    monkeypatch.setattr(layer, "new_channel", new_channel)
    return opened


async def answer_calls(communicator, count):
    """Answer ``count`` calls as the wallet, each with its own id as text."""
    for _ in range(count):
        call = await communicator.receive_json_from(timeout=5)
        await communicator.send_json_to(
            {"type": "result", "id": call["id"], "ok": True, "output": {"text": str(call["id"])}}
        )


async def test_many_calls_from_another_process_share_one_reply_channel_and_leave_nothing_waiting(
    layer, wallet_socket, caller_elsewhere, monkeypatch
):
    first, first_pairing = await paired_elsewhere(wallet_socket)
    second, second_pairing = await paired_elsewhere(wallet_socket)
    opened = count_new_channels(layer, monkeypatch)
    callers = [
        asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=10))
        for _ in range(4)
        for pairing in (first_pairing, second_pairing)
    ]
    await asyncio.gather(answer_calls(first, 4), answer_calls(second, 4))
    outputs = await asyncio.wait_for(asyncio.gather(*callers), 5)
    assert len({output["text"] for output in outputs}) == 8  # each caller got its own call's result
    assert opened == [await events.replies.channel()]  # one channel for all of them
    assert events.replies.waiting() == 0
    # More calls later use the same channel again.
    caller = asyncio.ensure_future(call_wallet(first_pairing, "audio.transcribe", CLIP, timeout=10))
    await answer_calls(first, 1)
    await asyncio.wait_for(caller, 5)
    assert len(opened) == 1 and events.replies.waiting() == 0


async def test_calls_that_time_out_leave_nothing_waiting_on_the_reply_channel(
    layer, wallet_socket, caller_elsewhere
):
    _communicator, pairing = await paired_elsewhere(wallet_socket)
    callers = [
        asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=0.2)) for _ in range(3)
    ]
    outcomes = await asyncio.wait_for(asyncio.gather(*callers, return_exceptions=True), 5)
    assert [type(outcome) for outcome in outcomes] == [WalletTimeout] * 3
    assert events.replies.waiting() == 0


async def test_a_caller_in_another_process_that_leaves_mid_call_frees_its_slot_at_once_and_leaves_nothing_waiting(
    layer, wallet_socket, caller_elsewhere
):
    communicator, pairing = await paired_elsewhere(wallet_socket, limits={"maxParallelCalls": 1})
    leaving = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=60))
    first = await communicator.receive_json_from(timeout=5)
    leaving.cancel()  # the visitor's request went: Django cancels the view
    await asyncio.gather(leaving, return_exceptions=True)
    assert events.replies.waiting() == 0
    # The next call reaches the wallet: the cancel went before it, on the connection's channel.
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=10))
    second = await communicator.receive_json_from(timeout=5)
    assert second["id"] != first["id"]
    # The left call's late result is dropped quietly: no flood, and not the next caller's answer.
    await communicator.send_json_to(
        {"type": "result", "id": first["id"], "ok": True, "output": {"text": "late"}}
    )
    await communicator.send_json_to(
        {"type": "result", "id": second["id"], "ok": True, "output": {"text": "ok"}}
    )
    assert await asyncio.wait_for(caller, 5) == {"text": "ok"}
    assert events.replies.waiting() == 0


async def test_callers_cancelled_before_their_call_went_leave_nothing_waiting_and_the_channel_usable(
    layer, wallet_socket, caller_elsewhere
):
    communicator, pairing = await paired_elsewhere(wallet_socket)
    # Cancelled at each await on the way: opening the reply channel, reading the pairing, sending.
    for steps in range(6):
        caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=60))
        for _ in range(steps):
            await asyncio.sleep(0)
        caller.cancel()
        await asyncio.gather(caller, return_exceptions=True)
        assert events.replies.waiting() == 0
    # Whatever reached the wallet was cancelled; the connection is open and answers the next call.
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, {"n": "last"}, timeout=10))
    while (call := await communicator.receive_json_from(timeout=5))["params"] != {"n": "last"}:
        # A cancelled call's late result: dropped quietly.
        await communicator.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": {}})
    await communicator.send_json_to(
        {"type": "result", "id": call["id"], "ok": True, "output": {"text": "ok"}}
    )
    assert await asyncio.wait_for(caller, 5) == {"text": "ok"}
    assert events.replies.waiting() == 0


async def test_a_reply_channel_the_layer_cannot_open_ends_the_call_as_wallet_process_gone(
    layer, wallet_socket, caller_elsewhere, monkeypatch
):
    communicator, pairing = await paired_elsewhere(wallet_socket)
    new_channel = layer.new_channel

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is down")  # as redis-py raises it, from the layer's new_channel

    monkeypatch.setattr(layer, "new_channel", down)
    with pytest.raises(WalletProcessGone):
        await asyncio.wait_for(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5), 5)
    assert events.replies.waiting() == 0
    monkeypatch.setattr(layer, "new_channel", new_channel)  # the layer is back: the next call goes
    caller = asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", CLIP, timeout=5))
    await answer_calls(communicator, 1)
    assert await asyncio.wait_for(caller, 5)


FORKED_IDS = """
import os
from byoa.delivery import events
read, write = os.pipe()
if os.fork() == 0:
    os.write(write, str(events.new_call_id()).encode())
    os._exit(0)
os.close(write)
os.wait()
print(os.read(read, 64).decode(), events.new_call_id())
"""


def test_a_forked_process_draws_call_ids_of_its_own():
    # A process's ids come from a seeded generator: a child forked from it must not repeat them.
    # In a process of its own: forking pytest's, which runs threads, may deadlock the child.
    done = subprocess.run(
        [sys.executable, "-c", FORKED_IDS],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    childs, parents = done.stdout.split()
    assert childs != parents
    assert all(0 <= events.new_call_id() < 2**53 for _ in range(1000))
