"""
Page views store no session (DESIGN.md, "Security rules"): cookieless GETs of
every demo page add no row to django_session, with the DEBUG stand-ins on too;
the visitor's first act (a basket add, an answer, a move, a code, an MCP tool
with a side effect) creates one. On real daphne processes, counting the rows of
their own databases.
"""

import html
import json
import re
import sqlite3

import pytest

from sites.geography import names, places
from tests import loopback
from tests.mcp_server.test_live import mcp_client
from testwallet.server import DaphneServer

pytestmark = pytest.mark.live

PAGES = ["/", "/bookshop/", "/bookshop/basket/", "/geography/", "/twentyq/"]
VIEWS = 50


def sessions(server):
    with sqlite3.connect(server.database) as db:
        return db.execute("SELECT COUNT(*) FROM django_session").fetchone()[0]


@pytest.fixture(scope="module")
def debug_server(tmp_path_factory):
    """The project with DEBUG on, as `make run` serves it (the ?testwallet=1 stand-ins exist)."""
    with DaphneServer(
        "sites.config.asgi:application",
        env={"DJANGO_DEBUG": "1"},
        setup_commands=[["migrate", "--noinput"], ["load_catalog"]],
        workdir=tmp_path_factory.mktemp("sessions-debug"),
    ) as server:
        yield server


async def page_views(server, query=""):
    async with loopback.client(server.url, timeout=30) as http:
        for index in range(VIEWS):
            response = await http.get(PAGES[index % len(PAGES)] + query, headers={"cookie": ""})
            assert response.status_code == 200, (response.url, response.text[:500])
            http.cookies.clear()


async def test_cookieless_page_views_store_no_session(daphne_server):
    before = sessions(daphne_server)
    await page_views(daphne_server)
    assert sessions(daphne_server) == before


async def test_cookieless_page_views_with_the_debug_stand_ins_store_no_session(debug_server):
    before = sessions(debug_server)
    await page_views(debug_server, "?testwallet=1")
    assert sessions(debug_server) == before
    async with loopback.client(debug_server.url, timeout=30) as http:
        page = (await http.get("/bookshop/?testwallet=1")).text
        assert 'id="testwallet-relay"' in page  # the stand-ins are there, without a session
        assert 'id="testwallet-relay"' in (await http.get("/geography/")).text  # the choice sticks
    assert sessions(debug_server) == before


async def test_a_basket_add_from_the_form_creates_the_session(daphne_server):
    async with loopback.client(daphne_server.url, timeout=30) as http:
        await http.get("/bookshop/")
        assert "sessionid" not in http.cookies
        before = sessions(daphne_server)
        added = await http.post(
            "/bookshop/basket/add/", data={"slug": "dune"}, headers={"x-csrftoken": http.cookies["csrftoken"]}
        )
        assert added.status_code == 302
        assert sessions(daphne_server) == before + 1
        assert "Dune" in (await http.get("/bookshop/basket/")).text


async def test_the_first_answer_plays_the_game_the_page_showed_and_creates_the_session(daphne_server):
    async with loopback.client(daphne_server.url, timeout=30) as http:
        page = (await http.get("/geography/")).text
        shown = html.unescape(re.search(r'<h2 id="question">(.*?)</h2>', page, re.S).group(1)).strip()
        assert (
            shown
            == html.unescape(
                re.search(r'<h2 id="question">(.*?)</h2>', (await http.get("/geography/")).text, re.S).group(
                    1
                )
            ).strip()
        )  # a reload shows the same first question
        before = sessions(daphne_server)
        judged = await http.post(
            "/geography/answer/",
            content=json.dumps({"text": "Atlantis"}),
            headers={"content-type": "application/json", "x-csrftoken": http.cookies["csrftoken"]},
        )
        assert judged.status_code == 200, judged.text
        asked = [place for place in places.all_places().values() if place.question("en") == shown]
        assert judged.json()["expected"] in {names.display_name(place.country, "en") for place in asked}
        assert sessions(daphne_server) == before + 1


async def test_a_twentyq_move_creates_the_session(daphne_server):
    async with loopback.client(daphne_server.url, timeout=30) as http:
        await http.get("/twentyq/")
        before = sessions(daphne_server)
        started = await http.post(
            "/twentyq/api/new",
            content=json.dumps({"mode": "site-thinks"}),
            headers={"content-type": "application/json", "x-csrftoken": http.cookies["csrftoken"]},
        )
        assert started.status_code == 200, started.text
        assert sessions(daphne_server) == before + 1
        assert (await http.get("/twentyq/api/state")).json()["game"] is not None


async def test_a_code_creates_the_session(debug_server):
    async with loopback.client(debug_server.url, timeout=30) as http:
        await http.get("/geography/")
        before = sessions(debug_server)
        answer = await http.post(
            "/byoa/code", data={"manifest": "geography"}, headers={"x-csrftoken": http.cookies["csrftoken"]}
        )
        assert answer.status_code == 200, answer.text  # DEBUG on: a ws://127.0.0.1 link is built
        assert sessions(debug_server) == before + 1


async def test_an_mcp_add_from_the_page_creates_the_session_and_sets_its_cookie(daphne_server):
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with loopback.client(daphne_server.url, timeout=30) as browser:
        await browser.get("/bookshop/")
        before = sessions(daphne_server)
        # The page's fetch: its Origin and its cookies (a CSRF cookie, no session yet).
        http = httpx2.AsyncClient(
            timeout=10, headers={"origin": daphne_server.url}, cookies=dict(browser.cookies)
        )
        async with Client(streamable_http_client(f"{daphne_server.url}/api/mcp", http_client=http)) as client:
            empty = await client.call_tool("view_basket", {})
            assert not empty.is_error and empty.structured_content["items"] == []
            assert sessions(daphne_server) == before  # reading the basket is not an act
            added = await client.call_tool("add_to_basket", {"slug": "dune", "quantity": 2})
            assert not added.is_error, added.content
            assert sessions(daphne_server) == before + 1
            again = await client.call_tool(
                "add_to_basket", {"slug": "dune"}
            )  # the same session, from its cookie
            assert [item["quantity"] for item in again.structured_content["items"]] == [3]
        assert sessions(daphne_server) == before + 1
        browser.cookies.set("sessionid", http.cookies["sessionid"])
        assert "Dune" in (await browser.get("/bookshop/basket/")).text


async def test_a_desktop_client_without_a_cookie_gets_no_session_made_for_it(daphne_server):
    before = sessions(daphne_server)
    async with mcp_client(daphne_server) as client:
        refused = await client.call_tool("add_to_basket", {"slug": "dune"})
    assert refused.is_error and "no shop session" in refused.content[0].text
    assert sessions(daphne_server) == before
