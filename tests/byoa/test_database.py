"""
Calls waiting on wallets do not hold the request's pooled database connection
(byoa.calls): a daphne process on PostgreSQL with a pool of two connections
keeps answering while more calls than that wait on wallets.
"""

import asyncio
import itertools

import psycopg
import pytest

from tests.byoa.conftest import Browser
from tests.byoa.test_direct_link import clip
from testwallet.server import DaphneServer

pytestmark = pytest.mark.live

POOL_SIZE = 2
_databases = itertools.count(1)


@pytest.fixture
def pooled_server(postgres_server, tmp_path):
    """One daphne process of the project on a new PostgreSQL database, two pooled connections at most."""
    name = f"pool_{next(_databases)}"
    with psycopg.connect(postgres_server.url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    env = {
        "DATABASE_URL": f"{postgres_server.url.rpartition('/')[0]}/{name}",
        "DATABASE_POOL_SIZE": str(POOL_SIZE),
    }
    with DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.byoa.server_settings",
        workdir=tmp_path,
        env=env,
    ) as server:
        yield server


async def test_more_calls_than_pooled_connections_wait_on_wallets_while_the_server_still_answers(
    pooled_server, direct_wallet
):
    waiting = POOL_SIZE + 2
    started = asyncio.Semaphore(0)
    release = asyncio.Event()

    async def held_answer(input, params):
        started.release()
        await release.wait()
        return {"text": "Peru"}

    browsers = [Browser(pooled_server) for _ in range(waiting + 1)]
    try:
        for browser in browsers:
            await browser.open_page()
        for browser in browsers[:waiting]:
            wallet = await direct_wallet(
                (await browser.new_link())["link"], {"audio.transcribe": held_answer}
            )
            assert wallet.opened, wallet.activity
        calls = [
            asyncio.ensure_future(browser.call("audio.transcribe", clip(), timeout=60))
            for browser in browsers[:waiting]
        ]
        # Every call reaches its wallet: none of them is stuck waiting for a database connection.
        async with asyncio.timeout(30):
            for _ in range(waiting):
                await started.acquire()
        # A request that needs the database (the session, a code) is answered while they all wait.
        last = browsers[waiting]
        assert (await last.new_link())["link"].startswith("bringyourownagent://")
        release.set()
        assert [(await call)["output"] for call in calls] == [{"text": "Peru"}] * waiting
    finally:
        release.set()
        for browser in browsers:
            await browser.close()
