"""
What the tests of the transports between processes share (tests/byoa/test_transport.py on the
channel layer, tests/visitor_ai/speedups/test_redis_transport.py on the redis_transport
speed-up): a wallet connection behind a transport, and one call made as byoa.calls makes it.
"""

import asyncio

from byoa import events
from byoa.deadlines import Deadline


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


def connector(holder):
    """Return a function that adds a connection (answering with ``answer``) behind the transport ``holder``."""

    def connect(answer=answer_at_once):
        connection = FakeConnection(holder, answer)
        connection.channel_name = holder.address(holder.connections.new_key(connection))
        return connection

    return connect


async def call(transport, address, timeout=5.0, skill="text.generate", chunked=None):
    """Make one call as byoa.calls does; return (the events it got, its reply), or (None, None): not sent.

    ``chunked``, an asyncio.Event, is set when a chunk of the call arrives.
    """
    deadline = Deadline.start(timeout).awaiting_acceptance()
    reply = await transport.send_call(address, skill, {}, "{}", deadline)
    if reply is None:
        return None, None
    got = []
    try:
        while True:
            event = await reply.receive(deadline)
            got.append(event)
            if event is None or event["type"] != events.CHUNK:
                return got, reply
            if chunked is not None:
                chunked.set()
    finally:
        reply.close()


def strip(got):
    """Return the events without the call id the transport adds."""
    return [None if event is None else {k: v for k, v in event.items() if k != "call"} for event in got]
