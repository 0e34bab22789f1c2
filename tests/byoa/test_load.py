"""
Load on a real server process: a flood of wallets connecting at once, and a
wallet that answers after its call timed out. How fast the server is belongs to
benchmarks/ (soak.py, byoa_calls.py); these tests prove what must hold however
fast it is.
"""

import asyncio
import json
import sqlite3
import subprocess
import sys

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from byoa.wire import protocol
from tests.byoa.conftest import Browser, hello
from testwallet.server import UvicornServer

# make test's --dist loadgroup runs the module in one worker: one uvicorn for both tests.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("byoa-load")]

FLOOD = 1000
# Generous: a page waits behind the flood's hellos, not after all of them (asserted below).
PAGE_BOUND_SECONDS = 10
FLOOD_BOUND_SECONDS = 120


def _issue_codes(server, count):
    """Issue `count` codes of the geo manifest in the server's database, as many visitors on many addresses."""
    # Ten per address and one per visitor: within the default rate limits, as
    # real visitors would be. One transaction: SQLite commits are the slow part.
    script = (
        "import json, django\n"
        "django.setup()\n"
        "from django.db import transaction\n"
        "from byoa.pairing import codes, manifests\n"
        "manifest = manifests.get_manifest('geo')\n"
        "with transaction.atomic():\n"
        f"    issued = [codes.issue(f'flood-{{i}}', f'198.51.100.{{i // 10}}', manifest)[0] for i in range({count})]\n"
        "print(json.dumps(issued))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=server.environment(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def load_server(tmp_path_factory):
    """The project under uvicorn as ``make run`` serves it, with the production hello timeout."""
    server = UvicornServer(
        "sites.config.asgi:application",
        ws="websockets-sansio",
        settings_module="tests.byoa.load_settings",
        workdir=tmp_path_factory.mktemp("load"),
    )
    with server:
        yield server


class Flood:
    """Many lean wallets (websockets, no backend) that connect, say hello and wait for their welcome."""

    def __init__(self, url):
        self.url = url
        self.sockets = []
        self.welcomed = 0
        self.refused = []
        self.first_welcome = asyncio.Event()

    async def wallet(self, code):
        try:
            ws = await connect(self.url, open_timeout=FLOOD_BOUND_SECONDS, compression=None)
            self.sockets.append(ws)
            await ws.send(protocol.dump(hello(session=code)))
            frame = json.loads(await ws.recv())
        except (OSError, TimeoutError, ConnectionClosed) as exc:
            self.refused.append(type(exc).__name__)
            return
        if frame.get("type") == "welcome":
            self.welcomed += 1
            self.first_welcome.set()
        else:
            self.refused.append(frame)

    async def close(self):
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)


async def _until_every_pairing_is_let_go(server):
    """Wait until the server has recorded every wallet's departure (bounded by FLOOD_BOUND_SECONDS).

    A thousand departures are a thousand database writes queued on the server's
    one database thread: the next test's wallet would wait behind them for its
    welcome. The server tells no one when it is done, so its database is read.
    """
    database = f"file:{server.database}?mode=ro"
    async with asyncio.timeout(FLOOD_BOUND_SECONDS):
        while True:
            with sqlite3.connect(database, uri=True) as db:
                (held,) = db.execute("SELECT COUNT(*) FROM byoa_pairing WHERE channel_name != ''").fetchone()
            if not held:
                return
            await asyncio.sleep(0.2)


async def test_a_page_is_answered_while_a_thousand_wallets_connect_at_once(load_server):
    codes = _issue_codes(load_server, FLOOD)
    flood = Flood(f"{load_server.ws_url}/byoa/ws")
    try:
        connecting = asyncio.gather(*(flood.wallet(code) for code in codes))
        async with asyncio.timeout(FLOOD_BOUND_SECONDS):
            await flood.first_welcome.wait()
        async with httpx.AsyncClient(timeout=PAGE_BOUND_SECONDS) as http:
            page = await http.get(f"{load_server.url}/")
        welcomed_by_then = flood.welcomed
        async with asyncio.timeout(FLOOD_BOUND_SECONDS):
            await connecting
    finally:
        await flood.close()
        await _until_every_pairing_is_let_go(load_server)
    assert page.status_code == 200
    # Served among the hellos, not queued behind them all.
    assert welcomed_by_then < FLOOD, "the page was answered only after the whole flood"
    assert (flood.welcomed, flood.refused) == (FLOOD, [])


def _said(text):
    return {"messages": [{"role": "user", "content": text}]}


async def test_a_late_result_of_a_timed_out_call_is_dropped_not_given_to_the_next_caller(
    load_server, direct_wallet
):
    slow_started, second_arrived, late_sent = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def answer(input, params):
        text = input["messages"][0]["content"]
        if text == "slow":
            slow_started.set()
            await second_arrived.wait()  # long after the slow call's 1 s timeout
            late_sent.set()
            return {"text": "late answer to slow"}
        if text == "second":
            second_arrived.set()
            await late_sent.wait()  # the late answer goes out first, while this call is in flight
        return {"text": f"answer to {text}"}

    browser = Browser(load_server)
    try:
        await browser.open_page()
        link = (await browser.new_link("quiz"))["link"]
        wallet = await direct_wallet(link, {"text.generate": answer}, models=["m1", "m2"])
        assert wallet.opened, wallet.activity
        options = {"site": "quiz"}
        slow = await browser.call("text.generate", _said("slow"), {"model": "m1"}, timeout=1, **options)
        assert slow == {"output": None} and slow_started.is_set()
        second = await browser.call("text.generate", _said("second"), {"model": "m1"}, timeout=30, **options)
        assert second == {"output": {"text": "answer to second"}}
        assert wallet.answered == 2  # the late answer was sent, and dropped by the server
        third = await browser.call("text.generate", _said("third"), {"model": "m1"}, timeout=30, **options)
        assert third == {"output": {"text": "answer to third"}}  # the connection still serves
    finally:
        await browser.close()
