"""
Beyond one process (DESIGN.md, "Scale"): two daphne processes share one
database and a Redis channel layer; a wallet connected to process A serves a
call made by a page on process B.
"""

import asyncio

import pytest

from tests.byoa.conftest import Browser
from tests.byoa.test_direct_link import clip
from testwallet.server import DaphneServer

# redis_server (tests/service_fixtures.py) skips, saying how to install it, without Debian's redis-server.
# make test's --dist loadgroup runs the module in one worker: the two daphnes start once.
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("byoa-scale")]


@pytest.fixture(scope="module")
def two_processes(redis_server, tmp_path_factory):
    """Two daphne processes of the project: one database file, one Redis channel layer."""
    workdir = tmp_path_factory.mktemp("two-daphnes")
    env = {"REDIS_URL": redis_server.url}
    first = DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.byoa.server_settings",
        workdir=workdir,
        env=env,
    )
    second = DaphneServer(
        "sites.config.asgi:application",
        settings_module="tests.byoa.server_settings",
        workdir=workdir,
        env=env,
        setup_commands=(),
    )
    with first, second:
        yield first, second


async def test_a_wallet_connected_to_one_process_serves_a_call_made_on_another(two_processes, direct_wallet):
    first, second = two_processes
    browser = Browser(first)
    try:
        await browser.open_page()
        answer = await browser.new_link()
        assert f":{first.port}/" in answer["link"].replace("%3A", ":").replace("%2F", "/")
        wallet = await direct_wallet(answer["link"], {"audio.transcribe": {"text": "Peru"}})
        assert wallet.opened, wallet.activity
        # The same browser session (its cookie), now served by the other process.
        response = await browser.http.post(
            f"{second.url}/_test/call", json={"skill": "audio.transcribe", "input": clip(), "params": {}}
        )
        assert response.json() == {"output": {"text": "Peru"}}, second.output()[-3000:]
    finally:
        await browser.close()


async def test_a_stream_from_a_wallet_on_another_process_arrives_in_chunks(two_processes, direct_wallet):
    first, second = two_processes
    browser = Browser(first)
    try:
        await browser.open_page()
        link = (await browser.new_link("quiz"))["link"]
        wallet = await direct_wallet(link, {"text.generate": {"text": "Yes it is"}}, models=["m1", "m2"])
        assert wallet.opened, wallet.activity
        messages = {"messages": [{"role": "user", "content": "Is it big?"}]}
        response = await browser.http.post(
            f"{second.url}/_test/call",
            json={
                "skill": "text.generate",
                "input": messages,
                "params": {"model": "m1"},
                "site": "quiz",
                "stream": True,
            },
        )
        assert response.json() == {"output": {"text": "Yes it is"}, "deltas": ["Yes", " it", " is"]}
    finally:
        await browser.close()


async def test_a_wallet_on_another_process_that_drops_mid_call_gives_the_caller_none(
    two_processes, direct_wallet
):
    first, second = two_processes
    started = asyncio.Event()

    async def never_answer(input, params):
        started.set()
        await asyncio.Event().wait()

    browser = Browser(first)
    try:
        await browser.open_page()
        wallet = await direct_wallet((await browser.new_link())["link"], {"audio.transcribe": never_answer})
        assert wallet.opened, wallet.activity
        # A call timeout far beyond the HTTP client's: only the drop can end it in time.
        caller = asyncio.ensure_future(
            browser.http.post(
                f"{second.url}/_test/call",
                json={"skill": "audio.transcribe", "input": clip(), "params": {}, "timeout": 3600},
            )
        )
        async with asyncio.timeout(10):
            await started.wait()
        await wallet.drop()
        assert (await caller).json() == {"output": None}
    finally:
        await browser.close()
