"""
The direct link end to end on a real daphne: a visitor session asks for a
link, a headless wallet takes it, and the server calls the wallet. Close codes
and frame limits are checked on the wire, as daphne really sends them.
"""

import asyncio
import contextlib
import json
import time
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
import websockets
from websockets.asyncio.client import connect

from byoa.wire.wav import silent_clip
from tests.byoa.conftest import hello
from testwallet.direct import ScriptedBackend

pytestmark = pytest.mark.live

FOUR_MB = 4 * 1024 * 1024


def ws_endpoint(link):
    return unquote(dict(parse_qsl(urlsplit(link).query))["endpoint"])


def code_of(link):
    return dict(parse_qsl(urlsplit(link).query))["session"]


def clip(seconds=1.0):
    import base64

    return {"audio": {"mime": "audio/wav", "base64": base64.b64encode(silent_clip(seconds)).decode()}}


async def raw_socket(server, **options):
    return await connect(f"{server.ws_url}/byoa/ws", max_size=FOUR_MB, compression=None, **options)


async def closed_with(ws, timeout=10):
    """Read until the server closes; return the close code it sent."""
    try:
        async with asyncio.timeout(timeout):
            async for _message in ws:
                pass
    except websockets.ConnectionClosed:
        pass
    return ws.close_code


async def test_a_browser_session_pairs_a_wallet_by_link_and_the_server_calls_it(visitor, direct_wallet):
    answer = await visitor.new_link()
    assert ws_endpoint(answer["link"]).startswith("ws://127.0.0.1:")
    assert await visitor.wait_state(answer["session"]) == "waiting"
    wallet = await direct_wallet(answer["link"], {"audio.transcribe": {"text": "Peru"}})
    assert wallet.opened, wallet.activity
    assert await visitor.wait_state(answer["session"]) == "connected"
    assert await visitor.call("audio.transcribe", clip(), {"language": "en"}) == {"output": {"text": "Peru"}}
    assert wallet.backend.calls[0][2] == {"language": "en"}


async def test_a_streamed_text_answer_arrives_in_chunks(visitor, direct_wallet):
    link = (await visitor.new_link("quiz"))["link"]
    wallet = await direct_wallet(link, {"text.generate": {"text": "Yes it is"}}, models=["m1", "m2"])
    assert wallet.opened, wallet.activity
    messages = {"messages": [{"role": "user", "content": "Is it big?"}]}
    result = await visitor.call("text.generate", messages, {"model": "m2"}, site="quiz", stream=True)
    assert result == {"output": {"text": "Yes it is"}, "deltas": ["Yes", " it", " is"]}


async def test_a_call_to_a_wallet_that_never_answers_times_out_with_none(visitor, direct_wallet):
    never = asyncio.Event()

    async def hang(input, params):
        await never.wait()

    wallet = await direct_wallet(
        (await visitor.new_link())["link"], ScriptedBackend({"audio.transcribe": hang})
    )
    started = time.monotonic()
    assert await visitor.call("audio.transcribe", clip(), timeout=0.5) == {"output": None}
    assert 0.4 < time.monotonic() - started < 5
    assert wallet.opened


async def test_a_wallet_that_drops_mid_call_resolves_the_call_with_none_at_once(visitor, direct_wallet):
    called = asyncio.Event()

    async def hang(input, params):
        called.set()
        await asyncio.Event().wait()

    wallet = await direct_wallet(
        (await visitor.new_link())["link"], ScriptedBackend({"audio.transcribe": hang})
    )
    pending = asyncio.ensure_future(visitor.call("audio.transcribe", clip(), timeout=20))
    await asyncio.wait_for(called.wait(), 10)
    started = time.monotonic()
    await wallet.drop()
    assert await asyncio.wait_for(pending, 10) == {"output": None}
    assert time.monotonic() - started < 3


async def test_a_second_browser_session_never_reaches_the_first_ones_wallet(
    byoa_server, visitor, direct_wallet
):
    from tests.byoa.conftest import Browser

    await direct_wallet((await visitor.new_link())["link"], {"audio.transcribe": {"text": "mine"}})
    stranger = Browser(byoa_server)
    await stranger.open_page()
    try:
        assert await stranger.call("audio.transcribe", clip()) == {"output": None, "paired": False}
    finally:
        await stranger.close()


async def test_a_browser_origin_is_refused_at_the_handshake_on_daphne(byoa_server):
    with pytest.raises(websockets.InvalidStatus) as refused:
        await raw_socket(byoa_server, origin="http://127.0.0.1")
    assert refused.value.response.status_code == 403


async def test_a_wallet_sending_the_endpoints_own_origin_is_welcomed_on_daphne(visitor, byoa_server):
    code = code_of((await visitor.new_link())["link"])
    ws = await raw_socket(
        byoa_server, origin=byoa_server.url
    )  # http://127.0.0.1:<port> for ws://127.0.0.1:<port>
    await ws.send(json.dumps(hello(session=code)))
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.send(json.dumps({"type": "bye"}))
    assert await closed_with(ws) == 1000


async def test_a_frame_whose_type_is_a_list_is_ignored_on_the_wire(visitor, byoa_server):
    ws = await paired_socket(visitor, byoa_server)
    await ws.send(json.dumps({"type": ["call"]}))
    await ws.send(json.dumps({"type": {}}))
    await ws.send(json.dumps({"type": "bye"}))
    assert await closed_with(ws) == 1000  # not 1011: the consumer did not crash


async def test_non_json_closes_with_4007_on_the_wire(byoa_server):
    ws = await raw_socket(byoa_server)
    await ws.send("not json")
    assert await closed_with(ws) == 4007


async def test_a_bad_session_gets_the_error_frame_then_4008_on_the_wire(byoa_server):
    ws = await raw_socket(byoa_server)
    await ws.send(json.dumps(hello(session="x" * 32)))
    assert json.loads(await ws.recv()) == {"type": "error", "code": "bad-session"}
    assert await closed_with(ws) == 4008


async def test_no_hello_in_time_closes_with_4008_on_the_wire(byoa_server):
    ws = await raw_socket(byoa_server)  # this server's HELLO_SECONDS is 1
    started = time.monotonic()
    assert await closed_with(ws) == 4008
    assert 0.9 < time.monotonic() - started < 5


async def paired_socket(visitor, server):
    code = code_of((await visitor.new_link())["link"])
    ws = await raw_socket(server)
    await ws.send(json.dumps(hello(session=code)))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


PAD = '{"type":"ping","pad":"'


async def test_a_frame_of_exactly_4_mib_is_accepted(visitor, byoa_server):
    ws = await paired_socket(visitor, byoa_server)
    await ws.send(PAD + "x" * (FOUR_MB - len(PAD) - 2) + '"}')
    await ws.send(json.dumps({"type": "bye"}))
    assert await closed_with(ws) == 1000  # the big frame was read and ignored, then bye


async def test_a_frame_over_4_mib_makes_daphne_drop_the_connection(visitor, byoa_server):
    # Autobahn fails an oversized frame by dropping TCP (failByDrop): no close
    # frame reaches the wallet, which reports 1006. Our own 4009 is only for
    # servers that let such a frame through to the consumer.
    ws = await paired_socket(visitor, byoa_server)
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(PAD + "x" * FOUR_MB + '"}')
    assert await closed_with(ws) == 1006


async def test_the_older_connection_of_a_pairing_gets_bye_and_1000_on_the_wire(visitor, byoa_server):
    code = code_of((await visitor.new_link())["link"])
    older = await raw_socket(byoa_server)
    await older.send(json.dumps(hello(session=code)))
    token = json.loads(await older.recv())["pairing"]
    newer = await raw_socket(byoa_server)
    await newer.send(json.dumps(hello(pairing=token)))
    assert json.loads(await newer.recv())["type"] == "welcome"
    assert json.loads(await asyncio.wait_for(older.recv(), 10)) == {"type": "bye"}
    assert await closed_with(older) == 1000
    await newer.send(json.dumps({"type": "bye"}))
    assert await closed_with(newer) == 1000


async def test_the_project_server_serves_the_wallet_route_with_the_same_close_codes(daphne_server):
    with pytest.raises(websockets.InvalidStatus):
        await raw_socket(daphne_server, origin="http://127.0.0.1")
    ws = await raw_socket(daphne_server)
    await ws.send(json.dumps(hello(session="y" * 32)))
    assert json.loads(await ws.recv())["code"] == "bad-session"
    assert await closed_with(ws) == 4008
    ws = await raw_socket(daphne_server)
    await ws.send("{")
    assert await closed_with(ws) == 4007
