"""
nginx's per-address limits answer (deploy/nginx.conf.template): requests at
once on every path, wallet sockets at once on /byoa/ws (with a route id or
not), request rates on /byoa/code, /api/mcp, every POST and the admin's login,
refused with 429 by nginx itself; a client slow to send its headers is closed.
Through real nginx, in front of a real daphne process of the project, with
limits small enough to reach.
"""

import asyncio
import contextlib
import json
import socket
import time

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from deploy.cluster import NginxLimits, NginxProxy
from tests.services import ServiceMissing

pytestmark = pytest.mark.live

SMALL = NginxLimits(
    wallet_sockets=2,
    code_rate="1r/m",
    code_burst=2,
    mcp_rate="1r/m",
    mcp_burst=3,
    post_rate="1r/m",
    post_burst=6,
    admin_login_rate="1r/m",
    admin_login_burst=2,
)
LIST_TOOLS = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@contextlib.contextmanager
def nginx_in_front(daphne_server, tmp_path, limits):
    """Run nginx with ``limits`` in front of the test's daphne; skip, saying how to install it, without nginx."""
    try:
        proxy = NginxProxy([f"127.0.0.1:{daphne_server.port}"], tmp_path, limits=limits)
    except ServiceMissing as error:
        pytest.skip(str(error))
    with proxy.start():
        yield proxy


@pytest.fixture
def proxy(daphne_server, tmp_path):
    with nginx_in_front(daphne_server, tmp_path, SMALL) as proxy:
        yield proxy


def refused_by_nginx(response):
    return response.status_code == 429 and response.headers.get("server", "").startswith("nginx")


async def test_a_third_wallet_socket_from_one_address_is_refused_while_two_are_open(proxy):
    url = proxy.url.replace("http://", "ws://") + "/byoa/ws"
    async with asyncio.timeout(20):
        async with connect(url) as first, connect(url) as second:
            with pytest.raises(InvalidStatus) as refused:
                async with connect(url):
                    pass
            assert refused.value.response.status_code == 429
            await first.close()
            async with asyncio.timeout(5):
                await first.wait_closed()
            # nginx counts a socket while it is open: with one closed, the next is let in.
            async with connect(url) as third:
                assert second.state.name == third.state.name == "OPEN"


async def test_wallet_sockets_opened_faster_than_the_rate_are_refused_past_the_burst(daphne_server, tmp_path):
    # A flooder closed with 1009 for an oversized frame reopens at once; a wallet waits 1, 2, 5,
    # 10, then 30 s. One a minute with a burst of two: three open one after another, the fourth not.
    limits = NginxLimits(
        wallet_sockets=10, code_rate="1r/s", code_burst=5, mcp_rate="1r/s", mcp_burst=5,
        wallet_open_rate="1r/m", wallet_open_burst=2,
    )  # fmt: skip
    with nginx_in_front(daphne_server, tmp_path, limits) as proxy:
        url = proxy.url.replace("http://", "ws://") + "/byoa/ws"
        async with asyncio.timeout(20), httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
            for _ in range(3):
                async with connect(url) as wallet:
                    assert wallet.state.name == "OPEN"
            with pytest.raises(InvalidStatus) as refused:
                async with connect(url):
                    pass
            assert refused_by_nginx(refused.value.response)
            # Only the wallet route counts: a page from the same address is answered.
            assert (await http.get("/")).status_code == 200


async def test_sockets_with_a_route_id_count_against_the_same_wallet_socket_limit(proxy):
    from byoa.pairing.route_ids import new_route_id

    base = proxy.url.replace("http://", "ws://") + "/byoa/ws"
    async with asyncio.timeout(20):
        async with connect(f"{base}/{new_route_id()}"), connect(base):
            with pytest.raises(InvalidStatus) as refused:
                async with connect(f"{base}/{new_route_id()}"):
                    pass
            assert refused.value.response.status_code == 429


async def test_codes_past_the_burst_are_refused_by_nginx_and_other_pages_are_not_counted(proxy):
    async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
        # Django answers these (403: no CSRF token); nginx let them through: one at the
        # rate and the burst over it.
        answers = [await http.post("/byoa/code") for _ in range(SMALL.code_burst + 2)]
        assert [a.status_code for a in answers[:-1]] == [403] * (SMALL.code_burst + 1)
        assert refused_by_nginx(answers[-1])
        assert (await http.get("/byoa/wait", params={"session": "x"})).status_code == 200
        assert (await http.get("/")).status_code == 200


async def test_mcp_requests_past_the_burst_are_refused_by_nginx(proxy):
    async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
        answers = [
            await http.post("/api/mcp", content=LIST_TOOLS, headers=MCP_HEADERS)
            for _ in range(SMALL.mcp_burst + 2)
        ]
    assert [a.status_code for a in answers[:-1]] == [200] * (SMALL.mcp_burst + 1)
    assert refused_by_nginx(answers[-1])


@pytest.fixture
def few_connections(daphne_server, tmp_path):
    limits = NginxLimits(
        wallet_sockets=10, code_rate="1r/s", code_burst=5, mcp_rate="1r/s", mcp_burst=5, connections=2
    )
    with nginx_in_front(daphne_server, tmp_path, limits) as proxy:
        yield proxy


@pytest.mark.parametrize("path", ["/", "/static/visitor_ai/none.js", "/byoa/wait?session=x"])
async def test_one_address_past_its_connections_is_refused_on_every_path(few_connections, path):
    url = few_connections.url.replace("http://", "ws://") + "/byoa/ws"
    http = httpx.AsyncClient(base_url=few_connections.url, timeout=10)
    async with asyncio.timeout(20), connect(url), connect(url), http:
        assert refused_by_nginx(await http.get(path))
    async with httpx.AsyncClient(base_url=few_connections.url, timeout=10) as http:
        assert not refused_by_nginx(await http.get(path))  # with the sockets closed, it is let in


async def test_posts_past_the_burst_are_refused_by_nginx_on_any_path(proxy):
    async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
        answers = [
            await http.post("/geography/answer/", data={"text": "Peru"}) for _ in range(SMALL.post_burst + 2)
        ]
    assert not any(refused_by_nginx(answer) for answer in answers[:-1])
    assert refused_by_nginx(answers[-1])


async def test_admin_logins_past_the_burst_are_refused_by_nginx(proxy):
    async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
        answers = [
            await http.post("/admin/login/", data={"username": "admin", "password": f"guess {n}"})
            for n in range(SMALL.admin_login_burst + 2)
        ]
        assert not any(refused_by_nginx(answer) for answer in answers[:-1])
        assert refused_by_nginx(answers[-1])
        assert not refused_by_nginx(await http.get("/admin/login/"))  # the form itself is not counted


def test_a_client_that_never_finishes_its_headers_is_closed_within_15_seconds(proxy):
    host, port = proxy.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n")  # and nothing more
        started = time.monotonic()
        try:
            while client.recv(4096):  # nginx answers nothing; its close ends the wait
                pass
        except ConnectionResetError:  # reset_timedout_connection
            pass
        assert time.monotonic() - started < 15
