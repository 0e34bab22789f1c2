"""
Sticky routing through real nginx in front of three uvicorn processes
(deploy/nginx.conf.template, byoa/routes.py): a page's requests (by their
route cookie) and its wallet's socket (by the endpoint's last segment) land on
one process, so its calls stay in that process; when that process is gone the
rest of the ring takes over, calls cross processes until the wallet comes
back, then they are local again.

Every claim is read from the processes' side: each test view names the
process that answered (``X-Test-Process``, its pid) and whether the wallet's
connection was in it (``X-Test-Wallet``, tests/byoa/server_urls.py).
"""

import asyncio
import json
import re
from urllib.parse import parse_qsl, unquote, urlsplit

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from byoa.pairing import route_ids as routes
from tests.byoa.conftest import Browser
from tests.byoa.test_direct_link import clip
from tests.deploy.conftest import ADMIN

# The cluster of tests/deploy/test_cluster.py: --dist loadgroup starts it once for both.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("deploy-cluster")]

PERU = {"audio.transcribe": {"text": "Peru"}}
CALL = {"skill": "audio.transcribe", "params": {}}
BOUND_SECONDS = 30.0  # a wallet's way back (its delays below) and nginx's fail_timeout, with room


def endpoint_of(link):
    return unquote(dict(parse_qsl(urlsplit(link).query))["endpoint"])


async def call(browser, base=""):
    """Make the page's call through nginx (or at ``base``); return (output, process pid, wallet)."""
    response = await browser.http.post(f"{base}/_test/call", json={**CALL, "input": clip()})
    assert response.status_code == 200, response.text
    return response.json()["output"], response.headers["x-test-process"], response.headers["x-test-wallet"]


async def pids(cluster):
    """Return each process's pid, in the order of cluster.servers, as each process says it."""
    async with httpx.AsyncClient(timeout=30) as http:
        answers = [await http.get(f"{server.url}/_test/page") for server in cluster.servers]
    return [answer.headers["x-test-process"] for answer in answers]


@pytest.fixture
async def page(cluster):
    """A visitor's browser whose every request goes through nginx."""
    browser = Browser(cluster)
    await browser.open_page()
    yield browser
    await browser.close()


async def test_a_pages_requests_and_its_wallets_socket_land_on_one_process(cluster, page, direct_wallet):
    link = (await page.new_link())["link"]
    route_id = page.http.cookies["byoa_route"]
    assert routes.is_route_id(route_id)
    assert endpoint_of(link) == f"ws://127.0.0.1:{cluster.nginx.port}/byoa/ws/{route_id}"
    wallet = await direct_wallet(link, PERU)  # the headless wallet, connecting to the routed endpoint
    assert wallet.opened, wallet.activity
    answered = [await call(page) for _ in range(10)]
    home = answered[0][1]
    assert answered == [({"text": "Peru"}, home, "local")] * 10
    pages = {(await page.http.get("/_test/page")).headers["x-test-process"] for _ in range(10)}
    assert pages == {home}
    # Each process, asked directly, agrees: the wallet's connection is in that one process only.
    by_process = dict(zip(await pids(cluster), cluster.servers, strict=True))
    for pid, server in by_process.items():
        output, answered_by, where = await call(page, server.url)
        assert (output, answered_by, where) == ({"text": "Peru"}, pid, "local" if pid == home else "other")


async def test_requests_without_a_route_id_spread_over_the_processes(cluster):
    async with httpx.AsyncClient(base_url=cluster.url, timeout=30) as http:
        # No cookie jar's route id: each request is a new browser to nginx. 3 processes,
        # 30 requests: all on one would happen with a chance of 3 in 3**30.
        reached = {(await http.get("/_test/page")).headers["x-test-process"] for _ in range(30)}
    assert len(reached) >= 2, reached


async def test_the_route_id_survives_a_login_and_is_not_the_session_id(cluster, page):
    first = endpoint_of((await page.new_link())["link"])
    route_id, session_id = page.http.cookies["byoa_route"], page.http.cookies["sessionid"]
    assert route_id not in session_id and session_id not in first
    await page.http.get("/admin/login/")
    logged_in = await page.http.post(
        "/admin/login/?next=/admin/",
        data={
            "username": ADMIN[0],
            "password": ADMIN[1],
            "csrfmiddlewaretoken": page.http.cookies["csrftoken"],
        },
    )
    assert logged_in.status_code == 302, logged_in.text[:2000]
    assert page.http.cookies["sessionid"] != session_id  # Django gave the session a new key
    assert page.http.cookies["byoa_route"] == route_id
    assert endpoint_of((await page.new_link())["link"]) == first


async def test_a_process_restarted_leaves_calls_answered_across_processes_then_local_when_the_wallet_returns(
    cluster, page, direct_wallet
):
    link = (await page.new_link())["link"]
    notes = asyncio.Queue()  # what the wallet reports: "connection dropped; coming back", "connected to ..."
    # It keeps its pairing and comes back quickly (the spec's first delay is 1 s).
    wallet = await direct_wallet(
        link, PERU, consent="decide-on-my-own", delays=lambda: iter([0.2] * 100), report=notes.put_nowait
    )
    assert wallet.opened, wallet.activity
    output, home, where = await call(page)
    assert (output, where) == ({"text": "Peru"}, "local")
    index = (await pids(cluster)).index(home)

    port = cluster.stop_server(index)
    async with asyncio.timeout(BOUND_SECONDS):
        await wallet_back(notes)  # through nginx, to the next process on the ring
    output, stand_in, where = await call(page)
    assert (output, where) == ({"text": "Peru"}, "local") and stand_in != home  # the ring took over

    restarted = cluster.start_server(index, port=port)  # where nginx expects it: the ring is unchanged
    assert restarted.port == port
    new_home = (await pids(cluster))[index]
    async with asyncio.timeout(BOUND_SECONDS):
        # nginx tries the process again after its fail_timeout (2 s); until then the stand-in answers.
        while (answered := await call(page))[1] != new_home:
            assert answered == ({"text": "Peru"}, stand_in, "local")
    assert answered == ({"text": "Peru"}, new_home, "other")  # across processes, over Redis

    await wallet.drop()  # the wallet's next connection (any drop) reopens its endpoint
    async with asyncio.timeout(BOUND_SECONDS):
        await wallet_back(notes)
    assert [await call(page) for _ in range(3)] == [({"text": "Peru"}, new_home, "local")] * 3


async def wallet_back(notes):
    """Wait until the wallet reports its connection dropped, then that it is connected again."""
    for awaited in ("connection dropped", "connected to"):
        while not (await notes.get()).startswith(awaited):
            pass


async def test_a_wallet_written_from_the_spec_alone_is_welcomed_at_the_routed_endpoint(cluster, page):
    # No code of ours on the wallet's side: the link's endpoint as it is, no cookie, no Origin,
    # the hello of specs/byoa-sites.md ("The frames") written out by hand.
    link = (await page.new_link())["link"]
    query = dict(parse_qsl(urlsplit(link).query))
    hello = {
        "type": "hello",
        "v": "0.1",
        "session": query["session"],
        "pairing": None,
        "wallet": {"name": "Spec wallet", "version": "0.1"},
        "grant": {"skills": ["audio.transcribe"], "expiresAt": "2099-01-01T00:00:00Z"},
    }
    async with asyncio.timeout(20), connect(unquote(query["endpoint"]), compression=None) as ws:
        await ws.send(json.dumps(hello))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["manifest"] == query["manifest"]
        assert isinstance(welcome["pairing"], str) and welcome["pairing"]


async def test_a_wallet_on_an_old_endpoint_without_a_route_id_still_connects(cluster, page, direct_wallet):
    link = (await page.new_link())["link"]
    old = re.sub(r"%2Fbyoa%2Fws%2F[A-Za-z0-9_-]{22}", "%2Fbyoa%2Fws", link)
    assert endpoint_of(old) == f"ws://127.0.0.1:{cluster.nginx.port}/byoa/ws"
    wallet = await direct_wallet(old, PERU)
    assert wallet.opened, wallet.activity
    assert (await call(page))[0] == {"text": "Peru"}  # wherever it landed: locally or over Redis


@pytest.mark.parametrize("segment", ["short", "A" * 23, "A" * 22 + "/more", "A" * 21 + "~"])
async def test_a_malformed_route_segment_is_refused_with_403_and_no_error_in_any_process(cluster, segment):
    marks = [len(server.output()) for server in cluster.servers]
    url = f"ws://127.0.0.1:{cluster.nginx.port}/byoa/ws/{segment}"
    with pytest.raises(InvalidStatus) as refused:
        async with asyncio.timeout(10), connect(url):
            pass
    assert refused.value.response.status_code == 403
    for server, mark in zip(cluster.servers, marks, strict=True):
        said = server.output()[mark:]
        assert "Traceback" not in said and "No route found" not in said, said
