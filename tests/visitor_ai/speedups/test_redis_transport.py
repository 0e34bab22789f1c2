"""
The redis_transport speed-up (visitor_ai.speedups.redis_transport) on a real
Redis (Debian's redis-server): two transports in one process stand for two
server processes, each with a connection of its own that answers as a wallet
would. A call crosses, its events come back in order, the acknowledgement is
sent only when the answer is slow, a stale address or an unread inbox fails at
once, the reader comes back after Redis restarts, and nothing grows per call
(in the transports or in Redis).
"""

import asyncio
import threading

import pytest
import redis as redis_py

from byoa import events
from byoa.connections import Connections
from byoa.deadlines import Deadline
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


class FakeConnection:
    """A wallet connection behind a transport: it answers each call with ``answer(reply, event)``."""

    heard = 0.0

    def __init__(self, transport, answer):
        self.transport = transport
        self.answer = answer
        self.notices = []
        self.noticed = asyncio.Event()
        self.channel_name = ""

    async def dispatch(self, message):
        if message["type"] == events.CALL:
            await self.answer(self.transport.reply_to(message["reply"]), message)
        else:
            self.notices.append(message["type"])
            self.noticed.set()

    async def start_call(self, reply, skill, params, body, deadline):
        raise AssertionError("only calls from another process come here")

    async def silent(self):
        pass


async def answer_at_once(reply, event):
    await reply.send(events.result(True, {"text": event["skill"]}))


@pytest.fixture
async def pair_of_processes(redis):
    """Return (the caller's transport, the wallet's transport, a function that adds a connection to the latter)."""
    caller = RedisTransport(Connections(), redis.url)
    holder = RedisTransport(Connections(), redis.url)
    await caller.open()
    await holder.open()

    def connect(answer=answer_at_once):
        connection = FakeConnection(holder, answer)
        connection.channel_name = holder.address(holder.connections.new_key(connection))
        return connection

    yield caller, holder, connect
    await caller.aclose()
    await holder.aclose()


async def call(transport, address, timeout=5.0, skill="text.generate"):
    """Make one call as byoa.calls does; return (the events it got, its reply)."""
    deadline = Deadline.start(timeout).awaiting_acceptance()
    reply = await transport.send_call(address, skill, {}, "{}", deadline)
    if reply is None:
        return None, None
    got = []
    while True:
        event = await reply.receive(deadline)
        got.append(event)
        if event is None or event["type"] != events.CHUNK:
            reply.close()
            return got, reply


def strip(got):
    """Return the events without the call id the transport adds."""
    return [None if event is None else {k: v for k, v in event.items() if k != "call"} for event in got]


async def test_a_call_crosses_to_the_connection_and_its_result_comes_back(pair_of_processes):
    caller, _holder, connect = pair_of_processes
    connection = connect()
    got, _reply = await call(caller, connection.channel_name)
    assert strip(got) == [{"type": events.RESULT, "ok": True, "output": {"text": "text.generate"}}]


async def test_chunks_come_in_order_before_the_result(pair_of_processes):
    caller, _holder, connect = pair_of_processes

    async def stream(reply, event):
        for delta in "abcdefgh":
            await reply.send(events.chunk(delta))
        await reply.send(events.result(True, {"text": "abcdefgh"}))

    got, _reply = await call(caller, connect(stream).channel_name)
    assert [event.get("delta") for event in got[:-1]] == list("abcdefgh")
    assert got[-1]["output"] == {"text": "abcdefgh"}


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


async def test_a_call_to_a_connection_that_left_its_address_is_told_so_at_once(pair_of_processes):
    caller, holder, connect = pair_of_processes
    connection = connect()
    holder.connections.forget_key(connection.channel_name.rpartition("#")[2])
    loop = asyncio.get_running_loop()
    started = loop.time()
    got, _reply = await call(caller, connection.channel_name, timeout=30)
    assert strip(got) == [events.LEFT]
    assert loop.time() - started < ACCEPT_SECONDS


async def test_a_call_to_an_inbox_nobody_reads_is_told_so_at_once(pair_of_processes):
    caller, holder, connect = pair_of_processes
    address = connect().channel_name
    await holder.aclose()  # the process is gone: nobody reads its inbox
    got, _reply = await call(caller, address, timeout=30)
    assert strip(got) == [events.UNREAD]


async def test_a_call_unanswered_ends_at_its_deadline_with_none_and_leaves_nothing_waiting(pair_of_processes):
    caller, _holder, connect = pair_of_processes

    async def never(reply, event):
        pass

    got, reply = await call(caller, connect(never).channel_name, timeout=ACCEPT_SECONDS * 2)
    assert got == [None]
    assert reply.acknowledged and not reply.unacknowledged  # the process is there: it acknowledged
    assert caller.counts()["waiting"] == 0


async def test_a_caller_cancelled_mid_call_leaves_nothing_waiting(pair_of_processes):
    caller, _holder, connect = pair_of_processes
    arrived = asyncio.Event()

    async def hold(reply, event):
        arrived.set()

    waiting = asyncio.ensure_future(call(caller, connect(hold).channel_name, timeout=30))
    async with asyncio.timeout(5):
        await arrived.wait()
    assert caller.counts()["waiting"] == 1
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert caller.counts()["waiting"] == 0


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


async def test_a_notice_reaches_the_connection_also_from_another_event_loop(pair_of_processes):
    caller, _holder, connect = pair_of_processes
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
