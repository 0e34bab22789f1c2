"""
nginx's per-address limits answer (deploy/nginx.conf.template): wallet sockets
at once on /byoa/ws (with a route id or not), request rates on /byoa/code and /api/mcp, refused with 429
by nginx itself; other paths are not counted. Through real nginx, in front of a
real daphne process of the project, with limits small enough to reach.
"""

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from deploy.cluster import NginxLimits, NginxProxy
from testwallet.services import ServiceMissing

pytestmark = pytest.mark.live

SMALL = NginxLimits(wallet_sockets=2, code_rate="1r/m", code_burst=2, mcp_rate="1r/m", mcp_burst=3)
LIST_TOOLS = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@pytest.fixture
def proxy(daphne_server, tmp_path):
    try:
        proxy = NginxProxy([f"127.0.0.1:{daphne_server.port}"], tmp_path, limits=SMALL)
    except ServiceMissing as error:
        pytest.skip(str(error))
    with proxy.start():
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


async def test_sockets_with_a_route_id_count_against_the_same_wallet_socket_limit(proxy):
    from byoa.routes import new_route_id

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
