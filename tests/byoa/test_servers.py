"""
The wallet route on every ASGI server the project supports, each a real
process: daphne (``make run``'s fallback and ``runserver``), uvicorn with each
of its WebSocket implementations, and hypercorn.

The close path is the point: a wallet's ``bye`` is followed at once by its
close frame, so the consumer's own close may come after the wallet's close
has arrived. Some servers raise on that send (uvicorn's wsproto and
websockets-sansio modes); the connection must still release its pairing, so
that the next call returns None at once instead of waiting for its timeout.
"""

import asyncio
import contextlib
import json

import pytest
import websockets

from byoa.wire.protocol import CloseCode
from tests.byoa.conftest import Browser, hello
from tests.byoa.test_direct_link import FOUR_MB, PAD, clip, closed_with, code_of, raw_socket
from tests.polling import until
from testwallet.server import DaphneServer, HypercornServer, UvicornServer

# make test's --dist loadgroup runs the module in one worker: each of the five servers starts once.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("byoa-servers")]

SERVERS = {
    "daphne": lambda **options: DaphneServer("sites.config.asgi:application", **options),
    "uvicorn-websockets": lambda **options: UvicornServer(
        "sites.config.asgi:application", ws="websockets", **options
    ),
    "uvicorn-websockets-sansio": lambda **options: UvicornServer(
        "sites.config.asgi:application", ws="websockets-sansio", **options
    ),
    "uvicorn-wsproto": lambda **options: UvicornServer(
        "sites.config.asgi:application", ws="wsproto", **options
    ),
    "hypercorn": lambda **options: HypercornServer("sites.config.asgi:application", **options),
}


@pytest.fixture(scope="module", params=list(SERVERS))
def server(request, tmp_path_factory):
    """The project on one server, with the BYOA test settings."""
    make = SERVERS[request.param]
    with make(
        settings_module="tests.byoa.server_settings", workdir=tmp_path_factory.mktemp(request.param)
    ) as running:
        yield running


@pytest.fixture
async def browser(server):
    browser = Browser(server)
    await browser.open_page()
    yield browser
    await browser.close()


async def live_state(browser):
    """Return what the server says of this browser's pairing: {"live": bool, and where when live}."""
    return (await browser.http.get("/_test/live")).json()


async def is_live(browser):
    return (await live_state(browser))["live"]


async def until_not_live(browser, bound=10.0):
    """Wait (bounded) until the server has released the pairing; return None, or what it last said."""
    said = None

    async def ask():
        nonlocal said
        said = await live_state(browser)
        return said

    try:
        async with asyncio.timeout(bound):
            await until(ask, lambda state: not state["live"])
    except TimeoutError:
        return said
    return None


async def test_a_call_reaches_the_wallet_through_the_server(server, browser, direct_wallet):
    wallet = await direct_wallet((await browser.new_link())["link"], {"audio.transcribe": {"text": "Peru"}})
    assert wallet.opened, wallet.activity
    assert await browser.call("audio.transcribe", clip()) == {"output": {"text": "Peru"}}, server.output()[
        -3000:
    ]


async def test_after_a_wallet_says_bye_the_pairing_is_not_live_and_a_call_returns_none_at_once(
    server, browser, direct_wallet
):
    wallet = await direct_wallet((await browser.new_link())["link"], {"audio.transcribe": {"text": "Peru"}})
    assert wallet.opened, wallet.activity
    assert await is_live(browser)
    await wallet.close()  # bye, then the close frame right behind it
    assert (held := await until_not_live(browser)) is None, f"{held}\n{server.output()[-3000:]}"
    # A call timeout far beyond the HTTP client's: only an answer at once gets back.
    assert await browser.call("audio.transcribe", clip(), timeout=3600) == {"output": None}
    assert "Traceback" not in server.output(), server.output()[-3000:]


async def test_a_wallet_that_drops_mid_call_gives_the_caller_none(server, browser, direct_wallet):
    started = asyncio.Event()

    async def never_answer(input, params):
        started.set()
        await asyncio.Event().wait()

    wallet = await direct_wallet((await browser.new_link())["link"], {"audio.transcribe": never_answer})
    assert wallet.opened, wallet.activity
    caller = asyncio.ensure_future(browser.call("audio.transcribe", clip(), timeout=3600))
    async with asyncio.timeout(10):
        await started.wait()
    await wallet.drop()
    assert await asyncio.wait_for(caller, 20) == {"output": None}
    assert (held := await until_not_live(browser)) is None, f"{held}\n{server.output()[-3000:]}"


async def paired_socket(server, browser):
    code = code_of((await browser.new_link())["link"])
    ws = await raw_socket(server)
    await ws.send(json.dumps(hello(session=code)))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def test_a_frame_of_exactly_4_mib_is_read_and_one_over_it_ends_the_connection(server, browser):
    ws = await paired_socket(server, browser)
    await ws.send(PAD + "x" * (FOUR_MB - len(PAD) - 2) + '"}')
    await ws.send(json.dumps({"type": "bye"}))
    assert await closed_with(ws) == 1000  # the big frame was read and ignored, then bye
    ws = await paired_socket(server, browser)
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(PAD + "x" * FOUR_MB + '"}')
    # The server's own limit: 1009 from uvicorn and hypercorn, a dropped connection (1006) from daphne.
    assert await closed_with(ws) in (1006, 1009, CloseCode.TOO_BIG)
    # A bound past the servers' own 10 s close timeout: after failing a connection, uvicorn's
    # legacy websockets protocol may wait that long for the TCP close before it says disconnect.
    assert (held := await until_not_live(browser, bound=30.0)) is None, f"{held}\n{server.output()[-3000:]}"


async def test_a_frame_over_the_hello_cap_before_a_hello_gets_close_4009_on_the_wire(server):
    ws = await raw_socket(server)
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(PAD + "x" * 100_000 + '"}')
    # 4009, not the spec's 1009: daphne sends only 1000 and 3000-4999 (byoa.wire.protocol).
    assert await closed_with(ws) == CloseCode.TOO_BIG == 4009


async def test_a_paired_wallet_that_floods_gets_close_4009_on_the_wire(server, browser):
    ws = await paired_socket(server, browser)
    frame = PAD + "x" * (FOUR_MB - len(PAD) - 2) + '"}'
    with contextlib.suppress(websockets.ConnectionClosed):
        for _ in range(12):  # the allowance is two and refills one every 10 s: closed well before 12
            await ws.send(frame)
    assert await closed_with(ws) == 4009
    assert (held := await until_not_live(browser, bound=30.0)) is None, f"{held}\n{server.output()[-3000:]}"


@pytest.mark.parametrize("path", ["/anything", "/api/mcp", "/byoa/wsX"])
async def test_a_websocket_on_a_path_with_no_route_gets_403_and_logs_no_traceback(server, path):
    mark = len(server.output())
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(f"{server.ws_url}{path}", open_timeout=10)
    assert refused.value.response.status_code == 403
    logged = server.output()[mark:]
    assert "Traceback" not in logged and "No route found" not in logged
