"""
The cross-process path of calls on the channel layer (byoa.transport), on
each layer a site runs: channels' in-memory layer, and channels-redis's
pub/sub layer (the demo settings' default with REDIS_URL) and core layer on a
real redis-server; where it behaves alike, on the redis_transport speed-up too
(tests/visitor_ai/speedups/test_redis_transport.py has the rest of it). Two
transports in one process stand for two server processes, each on a layer
instance of its own (its own Redis connections), as two processes have; a fake
connection behind one answers as a wallet would.

A call crosses and its events come back in order; the acknowledgement goes only
when the answer is slow; a stale address fails at once; a call to an inbox
nobody reads ends at its acceptance window; nothing grows per call, in the
transports or in Redis; and when the layer loses what it carried (Redis
restarted), the calls waiting end at once, not at their deadlines, and the next
ones cross again by themselves.
"""

import asyncio
import threading

import pytest

from byoa import events
from byoa.connections import Connections
from byoa.transport import ChannelLayerTransport
from tests.byoa.transports import call, connector, strip
from tests.polling import until
from tests.services import RedisServer, ServiceMissing

ACCEPT_SECONDS = 0.4

LAYERS = {
    "in-memory": "channels.layers.InMemoryChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
ON_REDIS = [pytest.param("pubsub", marks=pytest.mark.live), pytest.param("core", marks=pytest.mark.live)]


@pytest.fixture(scope="module")
def redis():
    try:
        server = RedisServer(persistent=False)
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        yield server


@pytest.fixture(autouse=True)
def short_acceptance(byoa_settings):
    byoa_settings.BYOA = {**byoa_settings.BYOA, "ACCEPT_SECONDS": ACCEPT_SECONDS}


def layer_settings(settings, layer, redis_url=None):
    """Configure one layer alias per process ("caller", "holder"); return the two aliases."""
    if layer == "in-memory":  # one process's memory: both transports must share the one layer
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": LAYERS[layer]}}
        return None, None
    config = {"hosts": [{"address": redis_url, "socket_timeout": 10, "socket_connect_timeout": 2}]}
    settings.CHANNEL_LAYERS = {
        alias: {"BACKEND": LAYERS[layer], "CONFIG": config} for alias in ("default", "caller", "holder")
    }
    return "caller", "holder"


@pytest.fixture
async def processes(request, settings):
    """Return (the caller's transport, the wallet's transport, a function adding a connection to the latter)."""
    layer = request.param
    redis_url = request.getfixturevalue("redis").url if layer != "in-memory" else None
    if layer == "redis_transport":  # the speed-up in place of the layer (visitor_ai.speedups)
        from visitor_ai.speedups.redis_transport import RedisTransport

        caller, holder = RedisTransport(Connections(), redis_url), RedisTransport(Connections(), redis_url)
    else:
        caller_alias, holder_alias = layer_settings(settings, layer, redis_url)
        caller = ChannelLayerTransport(Connections(), caller_alias)
        holder = ChannelLayerTransport(Connections(), holder_alias)
    await caller.open()
    await holder.open()

    yield caller, holder, connector(holder)
    await caller.aclose()
    await holder.aclose()
    for transport in (caller, holder):  # channels-redis: close the layer's connections on this loop
        if not isinstance(transport, ChannelLayerTransport):
            continue
        layer = transport.layer
        if hasattr(layer, "close_pools"):
            await layer.close_pools()
        elif hasattr(layer, "flush"):
            await layer.flush()


EVERY_LAYER = pytest.mark.parametrize("processes", ["in-memory", *ON_REDIS], indirect=True)
#: Every layer, and the redis_transport speed-up: what every transport between processes does alike.
EVERY_TRANSPORT = pytest.mark.parametrize(
    "processes",
    ["in-memory", *ON_REDIS, pytest.param("redis_transport", marks=pytest.mark.live)],
    indirect=True,
)
REDIS_LAYERS = pytest.mark.parametrize("processes", ON_REDIS, indirect=True)


@EVERY_TRANSPORT
async def test_a_call_crosses_to_the_connection_and_its_result_comes_back(processes):
    caller, _holder, connect = processes
    got, _reply = await call(caller, connect().channel_name)
    assert strip(got) == [{"type": events.RESULT, "ok": True, "output": {"text": "text.generate"}}]


@EVERY_TRANSPORT
async def test_chunks_come_in_order_before_the_result(processes):
    caller, _holder, connect = processes

    async def stream(reply, event):
        for delta in "abcdefgh":
            await reply.send(events.chunk(delta))
        await reply.send(events.result(True, {"text": "abcdefgh"}))

    got, _reply = await call(caller, connect(stream).channel_name)
    assert [event.get("delta") for event in got[:-1]] == list("abcdefgh")
    assert got[-1]["output"] == {"text": "abcdefgh"}


@EVERY_LAYER
async def test_a_quick_answer_goes_unacknowledged_and_a_slow_one_is_acknowledged_once(
    processes, byoa_settings
):
    caller, holder, connect = processes
    # A window wide enough that "at once" fits in its quarter (1 s) on a busy machine.
    accept_seconds = 4
    byoa_settings.BYOA = {**byoa_settings.BYOA, "ACCEPT_SECONDS": accept_seconds}
    sent = []
    send = holder.send

    async def record(channel, event, what, *more):
        sent.append(event["type"])
        return await send(channel, event, what, *more)

    holder.send = record

    async def slowly(reply, event):
        # Past the quarter of the window after which it is acknowledged, and within the window.
        await asyncio.sleep(accept_seconds / 2)
        await reply.send(events.result(True, {"text": "slow"}))

    got, _reply = await call(caller, connect().channel_name)
    assert [event["type"] for event in got] == [events.RESULT]
    assert sent == [events.RESULT]
    sent.clear()
    got, reply = await call(caller, connect(slowly).channel_name)
    assert strip(got) == [{"type": events.RESULT, "ok": True, "output": {"text": "slow"}}]
    assert sent == [events.ACCEPTED, events.RESULT]
    assert reply.acknowledged


@EVERY_TRANSPORT
async def test_a_call_to_a_connection_that_left_its_address_is_told_so_at_once(processes):
    caller, holder, connect = processes
    connection = connect()
    holder.connections.forget_key(connection.channel_name.rpartition("#")[2])
    loop = asyncio.get_running_loop()
    started = loop.time()
    got, _reply = await call(caller, connection.channel_name, timeout=30)
    assert strip(got) == [events.LEFT]
    assert loop.time() - started < ACCEPT_SECONDS


@EVERY_LAYER
async def test_a_call_to_an_inbox_nobody_reads_ends_unacknowledged_at_its_acceptance_window(processes):
    caller, holder, connect = processes
    address = connect().channel_name
    await holder.aclose()  # the process is gone: nobody reads its inbox
    got, reply = await call(caller, address, timeout=30)
    assert got == [None]
    assert reply.unacknowledged  # the caller takes that process for dead (byoa.calls suspects it)


@EVERY_TRANSPORT
async def test_a_call_unanswered_ends_at_its_deadline_with_none_and_leaves_nothing_waiting(processes):
    caller, _holder, connect = processes

    async def never(reply, event):
        pass

    got, reply = await call(caller, connect(never).channel_name, timeout=ACCEPT_SECONDS * 2)
    assert got == [None]
    assert reply.acknowledged and not reply.unacknowledged  # the process is there: it acknowledged
    assert caller.counts()["waiting"] == 0


@EVERY_TRANSPORT
async def test_a_caller_cancelled_mid_call_leaves_nothing_waiting_and_cancels_the_call(processes):
    caller, _holder, connect = processes
    arrived = asyncio.Event()

    async def hold(reply, event):
        arrived.set()

    connection = connect(hold)
    waiting = asyncio.ensure_future(call(caller, connection.channel_name, timeout=30))
    async with asyncio.timeout(5):
        await arrived.wait()
    assert caller.counts()["waiting"] == 1
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert caller.counts()["waiting"] == 0
    async with asyncio.timeout(5):  # the caller's cancel reaches the connection
        await connection.noticed.wait()
    assert connection.notices == [events.CANCEL]


@EVERY_TRANSPORT
async def test_a_notice_reaches_the_connection_also_from_another_event_loop(processes):
    caller, _holder, connect = processes
    connection = connect()
    await caller.notify(connection.channel_name, {"type": events.CLOSE})
    async with asyncio.timeout(5):
        await connection.noticed.wait()
    connection.noticed.clear()

    # As the admin's sync view does (byoa.pairings.stop_pairings): async_to_sync, on a loop of its own.
    thread = threading.Thread(
        target=asyncio.run, args=(caller.notify(connection.channel_name, {"type": events.REPLACED}),)
    )
    thread.start()
    await asyncio.to_thread(thread.join, 10)
    async with asyncio.timeout(5):
        await connection.noticed.wait()
    assert connection.notices == [events.CLOSE, events.REPLACED]


@EVERY_LAYER
async def test_an_event_for_a_caller_without_the_sites_mac_is_not_its_answer(processes):
    from byoa.transport import addressed

    caller, holder, connect = processes
    arrived = asyncio.Event()
    replies = []

    async def hold(reply, event):
        replies.append(reply)
        arrived.set()

    pending = asyncio.ensure_future(call(caller, connect(hold).channel_name, timeout=30))
    async with asyncio.timeout(5):
        await arrived.wait()
    # The caller's own reply address, unsigned: its inbox drops it.
    await holder.layer.send(*addressed(replies[0].address, events.result(True, {"text": "forged"}), "call"))
    await replies[0].send(events.result(True, {"text": "the wallet's"}))
    got, _reply = await asyncio.wait_for(pending, 5)
    assert got[-1]["output"] == {"text": "the wallet's"}


@REDIS_LAYERS
async def test_many_calls_leave_nothing_behind_in_the_transports_or_in_redis(processes, redis):
    import redis as redis_py

    caller, holder, connect = processes
    connections = [connect() for _ in range(4)]
    client = redis_py.asyncio.Redis.from_url(redis.url)

    async def calls(connection, count):
        for _ in range(count):
            got, _reply = await call(caller, connection.channel_name)
            assert got[-1]["ok"]

    async def held():
        return (
            await client.pubsub_numsub(caller.inbox, holder.inbox),
            len(await client.pubsub_channels()),
            len(await client.client_list()),
            await client.dbsize(),
        )

    try:
        await asyncio.gather(*(calls(connection, 10) for connection in connections for _ in range(4)))
        before = await held()
        await client.config_resetstat()
        await asyncio.gather(*(calls(connection, 50) for connection in connections for _ in range(4)))
        stats = await client.info("commandstats")
        after = await held()
        # No channel, subscription or key per call; the core layer's pools hold a connection per
        # concurrent command (16 loops of calls here), the pub/sub layer's two in all.
        assert after[:2] == before[:2] and after[3] == before[3]
        pubsub = "pubsub" in type(caller.layer).__module__
        assert after[2] == before[2] if pubsub else after[2] <= before[2] + 16
        # One event each way, and on the pub/sub layer nothing else a call: no SUBSCRIBE, no ack.
        publishes = stats.get("cmdstat_publish", {}).get("calls", 0)
        if pubsub:
            assert set(stats) <= {"cmdstat_publish", "cmdstat_info", "cmdstat_config|resetstat"}, stats
            # 800 calls; a few probes may go while calls wait (PROBE_SECONDS).
            assert 1600 <= publishes <= 1620
        await asyncio.sleep(0)  # the last deliveries' tasks finish
        for transport in (caller, holder):
            assert transport.counts() == {"waiting": 0, "unaccepted": 0, "probes": 0, "deliveries": 0}
    finally:
        await client.aclose()


@REDIS_LAYERS
async def test_a_call_waiting_when_redis_restarts_ends_at_once_and_the_next_calls_cross_by_themselves(
    processes, redis
):
    caller, holder, connect = processes

    async def hold(reply, event):
        await reply.send(events.chunk("thinking"))  # and no result: the call waits on its 60 s deadline

    chunked = asyncio.Event()
    pending = asyncio.ensure_future(call(caller, connect(hold).channel_name, timeout=60, chunked=chunked))
    async with asyncio.timeout(5):
        await chunked.wait()  # heard from the connection's process: the call is under way
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.to_thread(redis.stop)
    try:
        got, reply = await asyncio.wait_for(pending, 15)
        # The transport failed: WalletProcessGone, and the other process is not taken for dead.
        assert strip(got)[-1] == events.FAILED and not reply.unacknowledged
        assert loop.time() - started < 15
        started = loop.time()
        got, _reply = await call(caller, connect().channel_name, timeout=30)  # while Redis is away
        assert got is None and loop.time() - started < 5  # not sent, and the caller knows at once
    finally:
        await asyncio.to_thread(redis.start)
    connection = connect()

    async def one_call():
        got, _reply = await call(caller, connection.channel_name, timeout=2)
        return got

    async with asyncio.timeout(20):
        await until(one_call, lambda got: got is not None and got[-1] is not None and got[-1].get("ok"))
    for _ in range(20):  # and every call after it
        got, _reply = await call(caller, connection.channel_name)
        assert got[-1]["ok"], got
    assert caller.is_open and holder.is_open


@pytest.mark.parametrize("processes", ["in-memory"], indirect=True)
async def test_a_caller_cancelled_while_its_call_is_sent_leaves_nothing_waiting_and_cancels_it(
    processes, monkeypatch
):
    caller, _holder, connect = processes
    layer = caller.layer
    send = layer.send
    stuck = asyncio.Event()

    async def deliver_then_hang(channel, message):
        # As channels-redis's core layer may: the event is in Redis before its last reply is read.
        await send(channel, message)
        if message["type"] == events.CALL:
            stuck.set()
            await asyncio.Event().wait()

    monkeypatch.setattr(layer, "send", deliver_then_hang)
    arrived = asyncio.Event()

    async def hold(reply, event):
        arrived.set()

    connection = connect(hold)
    waiting = asyncio.ensure_future(call(caller, connection.channel_name, timeout=30))
    async with asyncio.timeout(5):
        await stuck.wait()
        await arrived.wait()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert caller.counts()["waiting"] == 0
    async with asyncio.timeout(5):
        await connection.noticed.wait()
    assert connection.notices == [events.CANCEL]
