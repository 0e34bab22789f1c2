"""
Everything the site keeps between requests works across processes: three
uvicorn processes on PostgreSQL and Redis, addressed one by one and through
nginx (tests/deploy/conftest.py).
"""

import asyncio
import functools
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.byoa.conftest import Browser
from tests.byoa.test_direct_link import clip
from tests.deploy.conftest import ADMIN
from tests.mcp_server.test_live import mcp_client
from tests.polling import until

# make test's --dist loadgroup runs the module in one worker: the session's cluster starts once.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("deploy-cluster")]

PERU = {"audio.transcribe": {"text": "Peru"}}
# The deploy page's check that a call crosses processes, for a site of one's own.
CHECK_A_CALL = Path(__file__).resolve().parents[2] / "examples" / "production" / "check_a_call.py"


def on_process(link, server):
    """Return the link with its endpoint moved to ``server``: the wallet connects there."""
    return re.sub(r"127\.0\.0\.1%3A\d+%2F", f"127.0.0.1%3A{server.port}%2F", link)


async def call_on(browser, server):
    """Make the page's call to its wallet on ``server``, with the browser's cookies."""
    response = await browser.http.post(
        f"{server.url}/_test/call", json={"skill": "audio.transcribe", "input": clip(), "params": {}}
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
async def visitor(cluster):
    """A visitor's browser whose page came from the first process."""
    browser = Browser(cluster.servers[0])
    await browser.open_page()
    yield browser
    await browser.close()


async def test_a_code_issued_on_one_process_is_used_on_a_second_and_seen_by_the_wait_on_a_third(
    cluster, visitor, direct_wallet
):
    _first, second, third = cluster.servers
    answer = await visitor.new_link()
    wait = f"{third.url}/byoa/wait"
    assert (await visitor.http.get(wait, params={"session": answer["session"]})).json() == {
        "state": "waiting"
    }
    wallet = await direct_wallet(on_process(answer["link"], second), PERU)
    assert wallet.opened, wallet.activity
    connected = (await visitor.http.get(wait, params={"session": answer["session"]})).json()
    assert connected == {"state": "connected", "wallet": wallet.identity["name"], "active": True}


async def test_a_wallet_connected_to_one_process_serves_calls_made_on_every_process(
    cluster, visitor, direct_wallet
):
    first, second, third = cluster.servers
    wallet = await direct_wallet(on_process((await visitor.new_link())["link"], first), PERU)
    assert wallet.opened, wallet.activity
    for server in (first, second, third):
        assert await call_on(visitor, server) == {"output": {"text": "Peru"}}, server.output()[-3000:]
    response = await visitor.http.post(
        f"{cluster.url}/_test/call", json={"skill": "audio.transcribe", "input": clip(), "params": {}}
    )
    assert response.json() == {"output": {"text": "Peru"}}


async def test_a_link_made_through_nginx_names_nginx_and_its_wallet_serves_every_process(
    cluster, direct_wallet
):
    browser = Browser(cluster)
    try:
        await browser.open_page()
        answer = await browser.new_link()
        assert f"127.0.0.1%3A{cluster.nginx.port}%2Fbyoa%2Fws" in answer["link"]
        wallet = await direct_wallet(answer["link"], PERU)
        assert wallet.opened, wallet.activity
        for server in cluster.servers:
            assert await call_on(browser, server) == {"output": {"text": "Peru"}}
    finally:
        await browser.close()


async def admin_client(server):
    """Return an httpx client logged in to the admin of ``server``."""
    client = httpx.AsyncClient(base_url=server.url, timeout=30)
    await client.get("/admin/login/")
    response = await client.post(
        "/admin/login/?next=/admin/",
        data={"username": ADMIN[0], "password": ADMIN[1], "csrfmiddlewaretoken": client.cookies["csrftoken"]},
    )
    assert response.status_code == 302, response.text[:2000]
    return client


def newest_pairing(cluster):
    with psycopg.connect(cluster.postgres.url) as connection:
        return connection.execute("SELECT max(id) FROM byoa_pairing").fetchone()[0]


@pytest.mark.parametrize("action", ["pause", "revoke"])
async def test_an_admin_action_on_one_process_closes_the_live_connection_on_another(
    cluster, visitor, direct_wallet, action
):
    first, second, third = cluster.servers
    wallet = await direct_wallet(on_process((await visitor.new_link())["link"], first), PERU)
    assert wallet.opened, wallet.activity
    pairing = newest_pairing(cluster)
    admin = await admin_client(third)
    try:
        response = await admin.post(
            "/admin/byoa/pairing/",
            data={
                "action": action,
                "_selected_action": [pairing],
                "csrfmiddlewaretoken": admin.cookies["csrftoken"],
            },
        )
        assert response.status_code == 302, response.text[:2000]
    finally:
        await admin.aclose()
    async with asyncio.timeout(10):
        await wallet.closed.wait()
    assert (await call_on(visitor, second))["output"] is None


async def test_an_mcp_visitors_basket_is_theirs_whichever_process_answers(cluster):
    first, second, third = cluster.servers
    async with httpx.AsyncClient() as browser:
        assert (await browser.get(f"{cluster.url}/bookshop/")).status_code == 200
        # The visitor's first basket add makes the session (a page view makes none).
        added = await browser.post(
            f"{cluster.url}/bookshop/basket/add/",
            data={"slug": "the-hobbit", "quantity": 1},
            headers={"x-csrftoken": browser.cookies["csrftoken"]},
        )
        assert added.status_code == 302, added.text[:2000]
        cookies = dict(browser.cookies)
    async with mcp_client(first, cookies=cookies) as client:
        added = await client.call_tool("add_to_basket", {"slug": "the-hobbit", "quantity": 1})
        assert not added.is_error, added.content
    for server in (second, third, cluster):
        async with mcp_client(server, cookies=cookies) as client:
            basket = await client.call_tool("view_basket", {})
        items = [(item["book"]["slug"], item["quantity"]) for item in basket.structured_content["items"]]
        assert items == [("the-hobbit", 2)], server.url
    async with mcp_client(second) as stranger:
        assert (await stranger.call_tool("view_basket", {})).is_error


async def titles_on(server, query):
    async with mcp_client(server) as client:
        found = await client.call_tool("search_books", {"query": query})
    assert not found.is_error, found.content
    return [book["title"] for book in found.structured_content["books"]]


async def test_a_catalog_change_made_elsewhere_shows_in_every_process_within_the_recheck(cluster):
    from sites.bookshop.index import RECHECK_SECONDS

    for server in cluster.servers:  # every process has its index loaded
        assert await titles_on(server, "tolkien") == ["The Hobbit"]
    # The admin's save, in another process: the model's signals, as the admin sends them.
    cluster.manage(
        "shell",
        "-c",
        "from sites.bookshop.models import Book\n"
        "book = Book.objects.get(slug='the-hobbit'); book.title = 'There and Back Again'; book.save()",
    )
    changed = time.monotonic()
    try:
        for server in cluster.servers:
            async with asyncio.timeout(RECHECK_SECONDS + 5):
                await until(
                    functools.partial(titles_on, server, "tolkien"),
                    lambda titles: titles == ["There and Back Again"],
                )
        # Every process's index was reloaded within a recheck of the change (plus the requests' own time).
        assert time.monotonic() - changed < RECHECK_SECONDS + 5
    finally:
        cluster.manage(
            "shell",
            "-c",
            "from sites.bookshop.models import Book\n"
            "book = Book.objects.get(slug='the-hobbit'); book.title = 'The Hobbit'; book.save()",
        )


async def test_the_deploy_pages_check_gets_an_answer_from_a_process_that_holds_no_wallet(
    cluster, visitor, direct_wallet
):
    wallet = await direct_wallet(
        (await visitor.new_link("quiz"))["link"], {"text.generate": {"text": "hi there"}}
    )
    assert wallet.opened, wallet.activity
    with psycopg.connect(cluster.postgres.url) as connection:
        (pairing,) = connection.execute("SELECT max(id) FROM byoa_pairing").fetchone()
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "django", "shell"],
        input=CHECK_A_CALL.read_text(),
        env={**os.environ, **cluster.environment(), "PAIRING": str(pairing)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # The last line: Django's shell may say first what it imported by itself.
    assert done.stdout.splitlines()[-1] == "The wallet answered across processes: {'text': 'hi there'}"
    assert [call[0] for call in wallet.backend.calls] == ["text.generate"]
