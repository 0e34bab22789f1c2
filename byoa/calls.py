"""
Server -> wallet calls: the one API a site's code uses to reach a visitor's wallet.

::

    from byoa.calls import call_wallet, stream_wallet

    output = await call_wallet(pairing, "audio.transcribe",
                               {"audio": {"mime": "audio/wav", "base64": clip}},
                               {"language": "en"})
    if output is None:
        ...  # no wallet, declined, refused, failed or timed out: use your own path

    stream = stream_wallet(pairing, "text.generate", {"messages": messages})
    async for delta in stream:
        ...  # pieces of the answer as they come
    stream.output  # the final output, or None

This module never holds a socket. When the pairing's live connection is in
this process (``byoa.live``), the call goes to it directly and its outcome
comes back through a queue; otherwise it travels over the channel layer to
that connection's channel (its consumer runs in another process) and the
outcome comes back on a channel of the caller's own. Either way ``None`` comes
at once when the wallet is away, when the call is over the grant (skill,
model, expiry, ``maxParallelCalls``) or when the connection drops mid-call;
within ``BYOA["ACCEPT_SECONDS"]`` when the connection's process does not
acknowledge the call (it died) or the channel layer fails; otherwise at the
latest after ``timeout`` seconds.

Results are the wallet's: treat ``output`` as something the visitor typed.

While a call waits, the request's database connection goes back to its pool
(``byoa.database``), so calls waiting on wallets do not use up the pool.
"""

import asyncio
import logging

from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

from byoa import events, live, pairings, processes, protocol
from byoa.conf import byoa_setting
from byoa.database import give_back_pooled_connections
from byoa.replies import ChannelReply, LocalReply

__all__ = ["WalletStream", "call_wallet", "stream_wallet"]

logger = logging.getLogger(__name__)


async def call_wallet(pairing, skill, input, params=None, *, timeout=None):
    """Call the pairing's wallet and return the output object, or None."""
    return await WalletStream(pairing, skill, input, params, timeout=timeout, stream=False)._run()


def stream_wallet(pairing, skill, input, params=None, *, timeout=None):
    """Return a WalletStream of a call made with ``params.stream``: iterate it for the deltas."""
    return WalletStream(pairing, skill, input, params, timeout=timeout, stream=True)


class WalletStream:
    """One call in progress: an async iterator of text deltas, then ``output``.

    ``output`` is None until the call ends, and stays None when it fails.
    ``timeout`` bounds the whole call, deltas included.
    """

    def __init__(self, pairing, skill, input, params=None, *, timeout=None, stream=True):
        self.pairing = pairing
        self.skill = skill
        self.input = input
        self.params = dict(params or {})
        if stream:
            self.params["stream"] = True
        self.timeout = byoa_setting("CALL_SECONDS") if timeout is None else timeout
        self.output = None
        self._started = False
        self._address = ""  # of the connection in another process the call went to

    def __aiter__(self):
        if self._started:
            raise RuntimeError("A WalletStream can be iterated once.")
        self._started = True
        return self._deltas()

    async def _deltas(self):
        reply, deadline = await self._send_call()
        while reply is not None:
            message = await reply.receive(deadline)
            if message is None:  # the deadline passed
                self._no_answer(reply)
                return
            if message.get("type") == events.CHUNK:
                yield message["delta"]
            elif message.get("type") == events.RESULT:
                if message.get("ok"):
                    self.output = message.get("output")
                return

    async def _run(self):
        """Run the call to its end, deltas unread, and return the output (call_wallet's short way)."""
        self._started = True
        reply, deadline = await self._send_call()
        while reply is not None:
            message = await reply.receive(deadline)
            if message is None:
                self._no_answer(reply)
                break
            if message.get("type") == events.RESULT:
                if message.get("ok"):
                    self.output = message.get("output")
                break
        return self.output

    def _no_answer(self, reply):
        """Note a call that ended with nothing heard: unacknowledged, its process is taken for dead."""
        if reply.unacknowledged:
            processes.suspect(live.inbox_of(self._address))

    async def _send_call(self):
        """Hand the call to the pairing's live connection; return (where its outcome comes, the deadline)."""
        reply, deadline = await self._hand_over()
        if reply is not None:
            await give_back_pooled_connections()  # nothing of the database is needed while we wait
        return reply, deadline

    async def _hand_over(self):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        pk = getattr(self.pairing, "pk", self.pairing)
        body = protocol.call_body(self.skill, self.input, self.params)  # encoded once, here
        connection = live.get(pk)
        if connection is not None:
            # The connection's timer ends the call at the deadline and tells us,
            # so that a result racing the deadline is either delivered or
            # receipted as failed, never both.
            reply = LocalReply()
            await connection.start_call(reply, self.skill, self.params, body, self.timeout)
            return reply, deadline
        layer = get_channel_layer()
        # A process that calls beats too, so that it sweeps stopped processes even while it holds no wallet.
        await live.join(layer)
        channel = await pairings.live_channel(pk)
        if not channel:
            return None, deadline
        self._address = channel
        # The connection's process acknowledges at once; silence means it is gone (byoa.processes).
        accept_by = loop.time() + byoa_setting("ACCEPT_SECONDS")
        reply = ChannelReply(layer, await layer.new_channel(live.CHANNEL_PREFIX), accept_by)
        event = events.call(reply.channel, self.skill, self.params, body, max(0.0, deadline - loop.time()))
        try:
            await layer.send(*live.addressed(channel, event))
        except ChannelFull:
            return None, deadline
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            logger.warning("BYOA channel layer failed; a call was not sent (%s)", type(exc).__name__)
            return None, deadline
        return reply, deadline
