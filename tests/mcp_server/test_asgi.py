"""The MCP mount as an ASGI application: lifespan (uvicorn) and lazy start (daphne)."""

import asyncio
import json

import httpx
import pytest

from mcp_server.asgi import MCPApplication

LIST_TOOLS = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


async def list_tools(app):
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        return await http.post("/api/mcp", content=LIST_TOOLS, headers=HEADERS)


async def test_first_request_starts_the_session_manager_in_this_loop():
    app = MCPApplication()
    response = await list_tools(app)
    assert response.status_code == 200
    assert {tool["name"] for tool in response.json()["result"]["tools"]} >= {"search_books"}
    assert list(app._servers) == [asyncio.get_running_loop()]
    await app._servers.pop(asyncio.get_running_loop()).stop()


async def test_lifespan_starts_before_requests_and_stops_on_shutdown():
    app = MCPApplication()
    to_app, from_app = asyncio.Queue(), asyncio.Queue()
    lifespan = asyncio.create_task(app({"type": "lifespan"}, to_app.get, from_app.put))
    await to_app.put({"type": "lifespan.startup"})
    assert (await asyncio.wait_for(from_app.get(), 5))["type"] == "lifespan.startup.complete"
    server = app._servers[asyncio.get_running_loop()]
    assert (await list_tools(app)).status_code == 200
    await to_app.put({"type": "lifespan.shutdown"})
    assert (await asyncio.wait_for(from_app.get(), 5))["type"] == "lifespan.shutdown.complete"
    await asyncio.wait_for(lifespan, 5)
    assert server._task.done() and app._servers == {}


async def test_websocket_scope_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="serves http and lifespan"):
        await MCPApplication()({"type": "websocket"}, None, None)


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
async def test_every_method_but_post_gets_405_allow_post_without_reaching_the_sdk(method):
    app = MCPApplication()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        response = await asyncio.wait_for(http.request(method, "/api/mcp", headers=HEADERS), 5)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert app._servers == {}  # no SDK server was started for it
