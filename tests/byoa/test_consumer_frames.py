"""The wallet consumer's bounds on what a wallet sends, through WebsocketCommunicator: frames
before a hello and after it, JSON that is not a typed object, frames over the limit, floods, and a
hello that never comes. Each gets a clear close code or is ignored; nothing is answered twice."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from byoa.calls import call_wallet
from byoa.models import Pairing
from byoa.pairing import tokens
from byoa.wire import protocol
from byoa.wire.protocol import CloseCode
from tests.byoa.conftest import close_code, get_pairing, hello, new_code, pair

pytestmark = pytest.mark.django_db(transaction=True)


async def test_frames_before_a_valid_hello_get_no_answer(wallet_socket):
    communicator, connected = await wallet_socket()
    assert connected
    for frame in (
        {"type": "ping"},
        {"type": "result", "id": 1, "ok": True},
        {"type": "nope"},
        [1],
        "x",
        None,
    ):
        await communicator.send_json_to(frame)
    await communicator.send_to(bytes_data=b"\x00\x01")
    assert await communicator.receive_nothing(timeout=0.2)


@pytest.mark.parametrize("kind", [["call"], ["result"], {}, {"type": "ping"}, 1, 1.5, True, None])
async def test_frames_whose_type_is_not_a_string_are_ignored_before_and_after_hello(wallet_socket, kind):
    communicator, connected = await wallet_socket()
    assert connected
    await communicator.send_json_to({"type": kind, "id": 1, "ok": True})
    assert await communicator.receive_nothing(timeout=0.1)
    communicator, _welcome = await pair(wallet_socket)
    await communicator.send_json_to({"type": kind, "id": 1, "ok": True, "output": {}})
    await communicator.send_json_to({"type": "bye"})  # answered only if the frame before crashed nothing
    assert await close_code(communicator) == 1000


@pytest.mark.parametrize("frame", [["call"], "hello", 42, None, [], {}])
async def test_json_that_is_not_a_typed_object_is_ignored_after_hello(wallet_socket, frame):
    communicator, _welcome = await pair(wallet_socket)
    await communicator.send_json_to(frame)
    await communicator.send_json_to({"type": "bye"})
    assert await close_code(communicator) == 1000


async def test_no_hello_in_time_closes_with_4008(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "HELLO_SECONDS": 0.1}
    communicator, _ = await wallet_socket()
    await communicator.send_json_to({"type": "ping"})
    assert await close_code(communicator) == 4008


async def test_a_frame_that_is_not_json_closes_with_4007(wallet_socket):
    communicator, _ = await wallet_socket()
    await communicator.send_to(text_data="{not json")
    assert await close_code(communicator) == CloseCode.NOT_JSON == 4007


async def test_after_the_welcome_non_json_still_closes_with_4007(wallet_socket):
    communicator, _ = await pair(wallet_socket)
    await communicator.send_to(text_data="hello?")
    assert await close_code(communicator) == 4007


async def test_a_frame_over_the_limit_closes_with_4009(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "MAX_FRAME_BYTES": 1000}
    communicator, _ = await pair(wallet_socket)
    await communicator.send_to(text_data=json.dumps({"type": "ping", "pad": "é" * 600}))
    assert await close_code(communicator) == 4009


async def test_a_frame_over_the_hello_cap_before_a_hello_closes_with_4009_unparsed(
    wallet_socket, monkeypatch
):
    parsed = []
    real_parse = protocol.parse
    monkeypatch.setattr(protocol, "parse", lambda text: parsed.append(len(text)) or real_parse(text))
    communicator, _ = await wallet_socket()
    await communicator.send_json_to({"type": "ping"})
    await communicator.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * protocol.MAX_HELLO_BYTES}))
    assert await close_code(communicator) == CloseCode.TOO_BIG == 4009
    assert len(parsed) == 1  # the small ping only


async def test_small_frames_before_a_hello_past_their_total_close_with_4009(wallet_socket):
    communicator, _ = await wallet_socket()
    frame = json.dumps({"type": "nope", "pad": "x" * (protocol.MAX_HELLO_BYTES - 100)})
    for _ in range(protocol.MAX_BEFORE_HELLO_BYTES // len(frame)):
        await communicator.send_to(text_data=frame)
    assert await communicator.receive_nothing(timeout=0.1)
    await communicator.send_to(text_data=frame)
    assert await close_code(communicator) == 4009


async def test_a_binary_flood_before_a_hello_closes_with_4009(wallet_socket):
    communicator, _ = await wallet_socket()
    await communicator.send_to(bytes_data=b"\x00" * (protocol.MAX_HELLO_BYTES + 1))
    assert await close_code(communicator) == 4009


async def test_a_hello_after_a_few_small_frames_is_still_welcomed(wallet_socket):
    code, _wait = await new_code()
    communicator, _ = await wallet_socket()
    for _ in range(3):
        await communicator.send_json_to({"type": "nope", "pad": "x" * 10_000})
    await communicator.send_json_to(hello(session=code))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "welcome"


async def test_a_paired_wallet_that_floods_is_closed_with_4009(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "MAX_FRAME_BYTES": 10_000}
    communicator, _ = await pair(wallet_socket)
    frame = json.dumps({"type": "ping", "pad": "x" * 9_000})
    for _ in range(2):  # two frames of the largest size at once are allowed
        await communicator.send_to(text_data=frame)
    # A flood sends faster than the allowance refills (a frame every 10 s): the next ones do not fit.
    for _ in range(3):
        await communicator.send_to(text_data=frame)
    assert await close_code(communicator) == 4009


async def test_each_call_in_flight_makes_room_for_a_result_of_the_largest_size(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "MAX_FRAME_BYTES": 10_000}
    communicator, welcome = await pair(wallet_socket, limits={"maxParallelCalls": 4})
    pairing = await get_pairing(token_digest=tokens.digest(welcome["pairing"]))
    callers = [
        asyncio.ensure_future(call_wallet(pairing, "audio.transcribe", {"n": n}, timeout=30))
        for n in range(4)
    ]
    calls = [await communicator.receive_json_from(timeout=5) for _ in callers]
    for call in calls:  # four results of nearly the largest size, at once: twice the burst
        output = {"text": "x" * 9_000}
        await communicator.send_json_to({"type": "result", "id": call["id"], "ok": True, "output": output})
    assert [len((await caller)["text"]) for caller in callers] == [9_000] * 4


async def test_binary_unknown_types_and_ping_after_the_welcome_are_ignored(wallet_socket):
    communicator, _ = await pair(wallet_socket)
    await communicator.send_to(bytes_data=b"binary")
    await communicator.send_json_to({"type": "whatever", "id": 1})
    await communicator.send_json_to({"type": "ping"})
    await communicator.send_json_to({"type": "hello"})
    assert await communicator.receive_nothing(timeout=0.2)


async def test_a_flood_of_unsolicited_results_closes_with_4008(wallet_socket, settings):
    settings.BYOA = {**settings.BYOA, "UNSOLICITED_RESULTS": 3}
    communicator, _ = await pair(wallet_socket)
    for call_id in range(3):
        await communicator.send_json_to({"type": "result", "id": call_id + 100, "ok": True, "output": {}})
    assert await communicator.receive_nothing(timeout=0.1)
    await communicator.send_json_to({"type": "chunk", "id": 7, "delta": "x"})
    assert await close_code(communicator) == 4008


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "9" * 4301])
async def test_a_hello_with_a_number_json_cannot_carry_closes_with_4007(wallet_socket, number):
    code, _wait = await new_code()
    communicator, _ = await wallet_socket()
    text = json.dumps(hello(session=code, limits={"maxParallelCalls": 1})).replace(
        '"maxParallelCalls": 1', f'"maxParallelCalls": {number}'
    )
    assert number in text
    await communicator.send_to(text_data=text)
    assert await close_code(communicator) == 4007
    assert await database_sync_to_async(Pairing.objects.count)() == 0
