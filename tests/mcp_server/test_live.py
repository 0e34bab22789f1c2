"""
The MCP endpoint on a real daphne process, driven by the official `mcp` client
and by plain HTTP for the requests a well-behaved client never sends.
"""

import json

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests import loopback

pytestmark = pytest.mark.live

MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


def mcp_client(server, **http_options):
    """Return the official client for the live endpoint, over our own httpx2 client."""
    import httpx2

    http = httpx2.AsyncClient(timeout=10.0, verify=loopback.tls(), **http_options)
    return Client(streamable_http_client(f"{server.url}/api/mcp", http_client=http))


async def browser_cookies(server, slug):
    """Visit the shop like a browser, add a book with its form (the act that makes a session), return its cookies."""
    async with loopback.client(server.url) as browser:
        assert (await browser.get("/bookshop/")).status_code == 200
        added = await browser.post(
            "/bookshop/basket/add/",
            data={"slug": slug},
            headers={"x-csrftoken": browser.cookies["csrftoken"]},
        )
        assert added.status_code == 302 and "sessionid" in browser.cookies
        return dict(browser.cookies)


async def test_official_client_initializes_lists_and_calls_every_read_tool(daphne_server):
    async with mcp_client(daphne_server) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert tools == {"search_books", "get_book", "list_moods", "add_to_basket", "view_basket"}
        moods = await client.call_tool("list_moods", {})
        assert "calm" in moods.structured_content["moods"]
        found = await client.call_tool("search_books", {"mood": "calm", "limit": 2})
        assert len(found.structured_content["books"]) == 2
        slug = found.structured_content["books"][0]["slug"]
        book = await client.call_tool("get_book", {"slug": slug})
        assert book.structured_content["book"]["slug"] == slug


async def test_basket_tools_act_on_the_browser_session_of_the_cookie(daphne_server):
    cookies = await browser_cookies(daphne_server, "dune")
    async with mcp_client(daphne_server, cookies=cookies) as client:
        added = await client.call_tool("add_to_basket", {"slug": "the-hobbit", "quantity": 2})
        assert not added.is_error, added.content
        basket = await client.call_tool("view_basket", {})
        items = basket.structured_content["items"]
        assert [(item["book"]["slug"], item["quantity"]) for item in items] == [
            ("dune", 1),
            ("the-hobbit", 2),
        ]


async def test_two_browser_sessions_never_see_each_others_basket(daphne_server):
    alice, bob = await browser_cookies(daphne_server, "dune"), await browser_cookies(daphne_server, "dracula")
    assert alice != bob
    async with mcp_client(daphne_server, cookies=alice) as client:
        assert not (await client.call_tool("add_to_basket", {"slug": "the-hobbit"})).is_error
    async with mcp_client(daphne_server, cookies=bob) as client:
        assert not (await client.call_tool("add_to_basket", {"slug": "pride-and-prejudice"})).is_error
        bobs = await client.call_tool("view_basket", {})
    async with mcp_client(daphne_server, cookies=alice) as client:
        alices = await client.call_tool("view_basket", {})
    assert [i["book"]["slug"] for i in alices.structured_content["items"]] == ["dune", "the-hobbit"]
    assert [i["book"]["slug"] for i in bobs.structured_content["items"]] == ["dracula", "pride-and-prejudice"]


async def test_a_forged_session_cookie_has_no_basket(daphne_server):
    async with mcp_client(daphne_server, cookies={"sessionid": "forged-key-123"}) as client:
        result = await client.call_tool("view_basket", {})
    assert result.is_error
    assert "no shop session" in result.content[0].text


async def test_unknown_tool_and_wrong_arguments_are_tool_errors(daphne_server):
    async with mcp_client(daphne_server) as client:
        unknown = await client.call_tool("drop_tables", {})
        wrong = await client.call_tool("search_books", {"limit": "many"})
        missing = await client.call_tool("get_book", {"slug": "not-a-book"})
    assert unknown.is_error and "search_books" in unknown.content[0].text
    assert wrong.is_error and "limit" in wrong.content[0].text
    assert missing.is_error and "search_books" in missing.content[0].text


async def post(server, body, **headers):
    async with loopback.client(server.url) as http:
        return await http.post("/api/mcp", content=body, headers={**MCP_HEADERS, **headers})


async def test_same_origin_browser_request_is_answered(daphne_server):
    response = await post(daphne_server, json.dumps(LIST_TOOLS), origin=daphne_server.url)
    assert response.status_code == 200
    assert "access-control-allow-origin" not in response.headers


async def test_foreign_origin_gets_403_without_cors_headers(daphne_server):
    response = await post(daphne_server, json.dumps(LIST_TOOLS), origin="https://evil.example")
    assert response.status_code == 403
    assert "access-control-allow-origin" not in response.headers
    assert "Cross-origin" in response.json()["error"]["message"]


async def test_foreign_host_is_refused(daphne_server):
    response = await post(daphne_server, json.dumps(LIST_TOOLS), host="rebind.example")
    assert response.status_code == 421


async def test_non_json_content_type_is_refused(daphne_server):
    response = await post(daphne_server, "tools please", **{"content-type": "text/plain"})
    assert response.status_code == 400


async def test_malformed_json_is_a_parse_error_not_a_crash(daphne_server):
    response = await post(daphne_server, "{not json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == -32700


async def test_oversized_body_gets_413(daphne_server):
    padding = "x" * (300 * 1024)
    body = json.dumps({**LIST_TOOLS, "params": {"_meta": {"padding": padding}}})
    response = await post(daphne_server, body)
    assert response.status_code == 413


@pytest.mark.parametrize("accept", ["text/event-stream", "application/json, text/event-stream"])
async def test_a_get_is_refused_at_once_with_405_and_no_event_stream(daphne_server, accept):
    # A bound on the whole exchange: a GET given a stream would wait here for pings, not a body.
    async with loopback.client(daphne_server.url, timeout=5) as http:
        response = await http.get("/api/mcp", headers={"accept": accept})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.headers["content-type"] == "application/json"


async def test_server_still_answers_after_bad_requests(daphne_server):
    await post(daphne_server, "{not json")
    await post(daphne_server, "x" * (300 * 1024))
    response = await post(daphne_server, json.dumps(LIST_TOOLS))
    assert response.status_code == 200
    assert len(response.json()["result"]["tools"]) == 5
