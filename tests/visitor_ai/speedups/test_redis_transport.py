"""
The redis_transport speed-up (visitor_ai.speedups.redis_transport) on a real
Redis (Debian's redis-server): two transports in one process stand for two
server processes, each with a connection of its own that answers as a wallet
would. What it does as every transport does (a call crosses, its chunks come in
order, a stale address fails at once, a deadline, a cancel, a notice from another
loop) is tested with the others in tests/byoa/test_transport.py. Here: the
acknowledgement is sent only when the answer is slow, an unread inbox fails at
once, the reader comes back after Redis restarts, and nothing grows per call (in
the transports or in Redis).
"""

import asyncio

import pytest
import redis as redis_py

from byoa import events
from byoa.connections import Connections
from tests.byoa.transports import call, connector, strip
from tests.services import RedisServer, ServiceMissing
from visitor_ai.speedups.redis_transport import RedisTransport

pytestmark = pytest.mark.live

ACCEPT_SECONDS = 0.4


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


@pytest.fixture
async def pair_of_processes(redis):
    """Return (the caller's transport, the wallet's transport, a function that adds a connection to the latter)."""
    caller = RedisTransport(Connections(), redis.url)
    holder = RedisTransport(Connections(), redis.url)
    await caller.open()
    await holder.open()

    yield caller, holder, connector(holder)
    await caller.aclose()
    await holder.aclose()


async def test_a_quick_answer_goes_unacknowledged_and_a_slow_one_is_acknowledged_once(
    pair_of_processes, byoa_settings
):
    caller, holder, connect = pair_of_processes
    # A window wide enough that "at once" fits in its quarter on a busy machine.
    accept_seconds = 2
    byoa_settings.BYOA = {**byoa_settings.BYOA, "ACCEPT_SECONDS": accept_seconds}
    sent = []
    publish = holder.publish

    def record(channel, payload):
        sent.append(payload)
        publish(channel, payload)

    holder.publish = record

    async def slowly(reply, event):
        await asyncio.sleep(
            accept_seconds / 2
        )  # past the quarter of the window after which it is acknowledged
        await reply.send(events.result(True, {"text": "slow"}))

    got, _reply = await call(caller, connect().channel_name)
    assert [event["type"] for event in got] == [events.RESULT]
    assert not any(b"byoa.accepted" in payload for payload in sent)
    sent.clear()
    got, reply = await call(caller, connect(slowly).channel_name)
    assert strip(got) == [{"type": events.RESULT, "ok": True, "output": {"text": "slow"}}]
    assert sum(b"byoa.accepted" in payload for payload in sent) == 1
    assert reply.acknowledged


async def test_a_call_to_an_inbox_nobody_reads_is_told_so_at_once(pair_of_processes):
    caller, holder, connect = pair_of_processes
    address = connect().channel_name
    await holder.aclose()  # the process is gone: nobody reads its inbox
    got, _reply = await call(caller, address, timeout=30)
    assert strip(got) == [events.UNREAD]


async def test_many_calls_leave_nothing_behind_in_the_transports_or_in_redis(pair_of_processes, redis):
    caller, holder, connect = pair_of_processes
    connections = [connect() for _ in range(4)]
    client = redis_py.Redis.from_url(redis.url)
    try:

        async def calls(connection, count):
            for _ in range(count):
                got, _reply = await call(caller, connection.channel_name)
                assert got[-1]["ok"]

        await asyncio.gather(*(calls(connection, 25) for connection in connections for _ in range(4)))
        before = client.pubsub_numsub(caller.inbox, holder.inbox), len(client.pubsub_channels())
        clients = len(client.client_list())
        await asyncio.gather(*(calls(connection, 100) for connection in connections for _ in range(4)))
        after = client.pubsub_numsub(caller.inbox, holder.inbox), len(client.pubsub_channels())
        assert before == after == ([(caller.inbox.encode(), 1), (holder.inbox.encode(), 1)], 2)
        assert len(client.client_list()) == clients  # no connection per call
        assert client.dbsize() == 0  # no key of any kind
        await asyncio.sleep(0)  # the last deliveries' tasks finish
        for transport in (caller, holder):
            assert transport.counts() == {"waiting": 0, "unaccepted": 0, "deliveries": 0}
    finally:
        client.close()


async def test_after_redis_restarts_calls_fail_at_once_then_the_reader_resubscribes_by_itself(
    pair_of_processes, redis
):
    caller, holder, connect = pair_of_processes
    connection = connect()
    assert (await call(caller, connection.channel_name))[0][-1]["ok"]
    await asyncio.to_thread(redis.stop)
    loop = asyncio.get_running_loop()
    try:
        started = loop.time()
        got, _reply = await call(caller, connection.channel_name, timeout=30)
        assert got is None  # not sent: the write failed, and the caller knows at once
        assert loop.time() - started < 3
    finally:
        await asyncio.to_thread(redis.start)
    started = loop.time()
    while True:
        got, _reply = await call(caller, connection.channel_name, timeout=2)
        if got is not None and got[-1] is not None and got[-1]["type"] == events.RESULT:
            break
        assert loop.time() - started < 15, f"no call crossed within 15 s of the restart: {got}"
        await asyncio.sleep(0.1)
    assert caller.is_open and holder.is_open
