"""
The redis_transport speed-up across a Redis restart (issue 40, item 4), on a
real redis-server: two transports in one process stand for two server
processes. A call in flight when Redis goes away fails at once, and the first
call once both inboxes are subscribed again crosses (the writers' dead
connections are replaced, a failed write tried once more).
"""

import asyncio

import pytest
import redis as redis_py

from byoa import events
from byoa.connections import Connections
from byoa.deadlines import Deadline
from tests.polling import until
from tests.services import RedisServer, ServiceMissing
from visitor_ai.speedups.redis_transport import RedisTransport

pytestmark = pytest.mark.live


@pytest.fixture
def redis():
    try:
        server = RedisServer(persistent=False)
    except ServiceMissing as error:
        pytest.skip(str(error))
    with server:
        yield server


class Wallet:
    """A connection behind a transport that answers each call once ``go`` is set."""

    heard = 0.0

    def __init__(self, transport):
        self.transport = transport
        self.go = asyncio.Event()
        self.called = asyncio.Event()
        self.skills = []
        self.channel_name = transport.address(transport.connections.new_key(self))

    async def dispatch(self, message):
        if message["type"] == events.CALL:
            self.skills.append(message["skill"])
            reply = self.transport.reply_to(message["reply"])
            await reply.send(events.chunk("thinking"))  # the caller knows its call reached a live process
            self.called.set()
            await self.go.wait()
            await reply.send(events.result(True, {"text": "done"}))

    async def silent(self):
        pass


@pytest.fixture
async def processes(redis):
    caller = RedisTransport(Connections(), redis.url)
    holder = RedisTransport(Connections(), redis.url)
    await caller.open()
    await holder.open()
    yield caller, holder
    await caller.aclose()
    await holder.aclose()


async def call(transport, address, timeout, chunked=None):
    """Make one call as byoa.calls does; return its last event (None: nothing came, or not sent).

    ``chunked``, an asyncio.Event, is set when a chunk of the call arrives.
    """
    deadline = Deadline.start(timeout).awaiting_acceptance()
    reply = await transport.send_call(address, "text.generate", {}, "{}", deadline)
    if reply is None:
        return None
    try:
        while True:
            event = await reply.receive(deadline)
            if event is None or event["type"] != events.CHUNK:
                return event
            if chunked is not None:
                chunked.set()
    finally:
        reply.close()


async def restart(redis, *inboxes):
    """Restart redis-server on its port; return once every inbox is subscribed again (bounded)."""
    await asyncio.to_thread(redis.stop)
    await asyncio.to_thread(redis.start)
    client = redis_py.asyncio.Redis.from_url(redis.url)
    try:
        async with asyncio.timeout(15):
            await until(
                lambda: client.pubsub_numsub(*inboxes), lambda counts: all(count for _name, count in counts)
            )
    finally:
        await client.aclose()


async def test_a_call_in_flight_when_redis_restarts_fails_at_once(processes, redis):
    caller, holder = processes
    wallet = Wallet(holder)
    loop = asyncio.get_running_loop()
    chunked = asyncio.Event()
    pending = asyncio.ensure_future(call(caller, wallet.channel_name, timeout=60, chunked=chunked))
    await asyncio.wait_for(chunked.wait(), 5)  # the call is under way, and acknowledged
    started = loop.time()
    await asyncio.to_thread(redis.stop)
    try:
        outcome = await asyncio.wait_for(pending, 20)  # its deadline is 60 s away
    finally:
        await asyncio.to_thread(redis.start)
    assert outcome == events.FAILED or outcome is None
    assert loop.time() - started < 20


async def test_the_first_call_after_a_redis_restart_crosses_and_its_result_comes_back(processes, redis):
    caller, holder = processes
    wallet = Wallet(holder)
    wallet.go.set()
    assert (await call(caller, wallet.channel_name, timeout=5))["ok"]  # each writer holds a connection now
    await restart(redis, caller.inbox, holder.inbox)
    outcome = await call(caller, wallet.channel_name, timeout=10)
    assert outcome is not None and outcome["type"] == events.RESULT and outcome["ok"], outcome


async def test_an_event_published_on_redis_without_the_sites_mac_reaches_no_connection(processes, redis):
    import orjson

    from byoa import signing
    from byoa.transport import addressed

    caller, holder = processes
    wallet = Wallet(holder)
    wallet.go.set()
    channel, forged = addressed(
        wallet.channel_name, events.call(f"{caller.inbox}#1", "text.generate", {}, "{}", 5.0)
    )
    client = redis_py.asyncio.Redis.from_url(redis.url)
    try:
        # Heard by the inbox (one reader), and dropped there: no call reaches the connection.
        assert await client.publish(channel, orjson.dumps(forged)) == 1
        assert await client.publish(channel, b"\0" * 32 + orjson.dumps(forged)) == 1
        # An event behind the site's MAC is a call: so the two above could have been one.
        _channel, signed = addressed(
            wallet.channel_name, events.call(f"{caller.inbox}#2", "audio.transcribe", {}, "{}", 5.0)
        )
        assert await client.publish(channel, signing.seal(orjson.dumps(signed))) == 1
        await asyncio.wait_for(wallet.called.wait(), 5)
    finally:
        await client.aclose()
    assert wallet.skills == ["audio.transcribe"]
