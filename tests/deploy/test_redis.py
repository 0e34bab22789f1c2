"""
The plain path between processes beyond one Redis, with real server processes:
two uvicorn processes of the project on PostgreSQL, their channel layer
(channels-redis's pub/sub layer, the settings' default) sharded over two
redis-servers, and a wallet written from the spec (the test wallet's direct
link) connected to the first. Calls made on the second cross to it: the call
to the connection's channel, its result to the second process's reply channel.

Every call arrives when the channels are sharded; a Redis restarted under load
costs only the calls in flight then, each ended by its deadline with its typed
outcome, and the calls after it succeed with the same processes.
"""

import asyncio
import time

import pytest
import redis as redis_py

from byoa.calls import GRACE_SECONDS
from tests.byoa.conftest import Browser
from tests.byoa.test_direct_link import clip
from tests.deploy.conftest import ONE_ADDRESS_MANY_VISITORS
from tests.deploy.test_cluster import PERU, on_process
from tests.polling import until

pytestmark = [pytest.mark.live, pytest.mark.xdist_group("deploy-redis")]

CALL_TIMEOUT = 30  # far past what a call may take here
RESTART_CALL_TIMEOUT = 5  # a call whose events Redis lost ends at this, and the grace after it


@pytest.fixture(scope="module")
def sharded():
    """Two plain processes whose channel layer shards over two Redis servers."""
    from deploy.cluster import Cluster
    from tests.services import ServiceMissing

    cluster = Cluster(
        processes=2,
        redis_servers=2,
        settings_module="tests.byoa.server_settings",
        setup_commands=[("migrate", "--noinput")],
        limits=ONE_ADDRESS_MANY_VISITORS,
    )
    try:
        cluster.start()
    except ServiceMissing as error:
        pytest.skip(str(error))
    try:
        yield cluster
    finally:
        cluster.stop()


def clients(cluster):
    return [redis_py.Redis.from_url(redis.url) for redis in cluster.redises]


def channels_per_server(cluster):
    """Return, for each Redis server, how many channels (not groups) are subscribed on it."""
    found = []
    for client in clients(cluster):
        try:
            # The wallet's connection's and the callers' reply channels: nothing is subscribed per call.
            # Groups aside: the reply channels' group (byoa.delivery.events.MOVES) is one channel too.
            names = [name for name in client.pubsub_channels() if b"__group__" not in name]
            found.append(len(names))
        finally:
            client.close()
    return found


def publishes(cluster):
    """Return how many PUBLISH commands each Redis server has run."""
    counts = []
    for client in clients(cluster):
        try:
            counts.append(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
        finally:
            client.close()
    return counts


async def call_on(browser, server, timeout=CALL_TIMEOUT):
    """Make the page's call to its wallet on ``server``; return (outcome, process, seconds it took)."""
    started = time.monotonic()
    response = await browser.http.post(
        f"{server.url}/_test/call",
        json={"skill": "audio.transcribe", "input": clip(), "params": {}, "timeout": timeout},
        timeout=timeout + 10,
    )
    assert response.status_code == 200, response.text
    return response.headers["X-Test-Outcome"], response.headers["X-Test-Process"], time.monotonic() - started


def runs(outcomes, since):
    """Return the calls' outcomes as runs of one outcome: (its first start after ``since``, outcome, count)."""
    shown = []
    for started, _ended, outcome, _process in outcomes:
        if shown and shown[-1][1] == outcome:
            shown[-1][2] += 1
        else:
            shown.append([round(started - since, 2), outcome, 1])
    return [tuple(run) for run in shown]


@pytest.fixture
async def paired(sharded, direct_wallet):
    """A visitor whose wallet is connected to the first process; its channel and the second's reply
    channel on different servers."""
    first, second = sharded.servers
    browser = Browser(first)
    await browser.open_page()
    wallet = await direct_wallet(on_process((await browser.new_link())["link"], first), PERU)
    assert wallet.opened, wallet.activity
    # Each channel is hashed to one server: restart the second (a new reply channel) until they differ.
    for _ in range(12):  # 1 in 2 lands on the other server
        assert (await call_on(browser, second))[0] == "output"  # opens the second's reply channel
        async with asyncio.timeout(20):
            counts = await until(
                lambda: asyncio.to_thread(channels_per_server, sharded), lambda counts: sum(counts) == 2
            )
        if counts == [1, 1]:
            break
        await asyncio.to_thread(sharded.restart_server, 1)
    else:
        pytest.fail("the wallet's channel and the second process's reply channel never landed apart")
    yield browser
    await browser.close()


async def test_every_call_crosses_when_the_channel_layer_is_sharded_over_two_redis_servers(sharded, paired):
    second = sharded.servers[1]
    before = await asyncio.to_thread(publishes, sharded)
    outcomes = [await call_on(paired, second) for _ in range(30)]
    after = await asyncio.to_thread(publishes, sharded)
    assert [outcome for outcome, _process, _seconds in outcomes] == ["output"] * 30
    # The call went to the wallet's process's server, its result to the caller's: both carried events.
    assert all(later - earlier >= 30 for earlier, later in zip(before, after, strict=True)), (before, after)


async def test_a_redis_restarted_under_load_fails_only_the_calls_in_flight_fast_and_the_next_ones_succeed(
    sharded, paired
):
    second = sharded.servers[1]
    processes = {(await call_on(paired, server))[1] for server in sharded.servers}
    outcomes = []
    stop = asyncio.Event()

    async def load():
        while not stop.is_set():
            started = time.monotonic()
            outcome, process, seconds = await call_on(paired, second, RESTART_CALL_TIMEOUT)
            outcomes.append((started, started + seconds, outcome, process))

    loads = [asyncio.ensure_future(load()) for _ in range(4)]
    try:
        async with asyncio.timeout(30):
            await until(lambda: asyncio.sleep(0, len(outcomes)), lambda count: count >= 20)  # under load
        restarted = sharded.redises[1]  # one of the two: every call uses both servers (the fixture)
        down = time.monotonic()
        await asyncio.to_thread(restarted.stop)
        await asyncio.to_thread(restarted.start)
        up = time.monotonic()
        # Then the calls succeed again by themselves: twenty in a row after the first.
        try:
            async with asyncio.timeout(30):
                await until(
                    lambda: asyncio.sleep(0, [o for s, _e, o, _p in outcomes if s > up]),
                    lambda after: len(after) >= 21 and after[-20:] == ["output"] * 20,
                )
        except TimeoutError:
            pytest.fail(f"no recovery within 30 s of the restart: {runs(outcomes, down)}")
    finally:
        stop.set()
        await asyncio.gather(*loads)
    failed = [
        (started, ended, outcome) for started, ended, outcome, _process in outcomes if outcome != "output"
    ]
    assert failed, "the restart cost no call: the test did not restart what the calls use"
    for started, ended, outcome in failed:
        assert outcome == "WalletProcessGone", failed  # the typed outcome of a channel layer that failed
        # Failed at once (the layer refused the event), or at its deadline (the layer lost it).
        assert ended - started < RESTART_CALL_TIMEOUT + GRACE_SECONDS + 3, failed
        # In flight while Redis was away or coming back (channels-redis subscribes again within
        # about a second of it being back).
        assert ended > down and started < up + 5, (down, up, failed)
    assert {process for *_times, process in outcomes} <= processes  # no process was restarted
