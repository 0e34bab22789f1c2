"""
Server -> wallet calls: the one API a site's code uses to reach a visitor's wallet.

::

    from byoa import WalletCallError, aget_pairing, call_wallet, stream_wallet

    try:
        output = await call_wallet(await aget_pairing(request, "geography"), "audio.transcribe",
                                   {"audio": {"mime": "audio/wav", "base64": clip}}, {"language": "en"})
    except WalletCallError as exc:
        logger.info("own mode: %s", type(exc).__name__)  # which outcome, never the call's content
        ...  # answer in your own way

    stream = stream_wallet(pairing, "text.generate", {"messages": messages})
    async for delta in stream:  # raises as call_wallet does, at the point the call fails
        ...  # pieces of the answer as they come
    stream.output  # the final output

A call either returns the wallet's output or raises one subclass of
``WalletCallError`` (``byoa.exceptions`` draws the tree) naming the outcome:
``NoPairing`` and ``WalletOffline`` (both ``WalletNotConnected``), ``CallRefused``
(outside the grant) and its ``TooManyCalls`` (``maxParallelCalls``),
``WalletDeclined`` (the wallet's ``ok: false``), ``WalletTimeout``,
``WalletLeft`` (gone mid-call) and ``WalletProcessGone``.

Why exceptions, not a result with a status: httpx returns a ``Response`` only
when a response arrived, and raises for everything that is not one (``ConnectError``,
``TimeoutException``, ``RemoteProtocolError``); the ``mcp`` SDK returns
``isError`` results only when they carry content for the model to read, and
raises ``McpError`` otherwise. None of these outcomes carries anything to read
(the spec's ``{ok: false}`` has no reason), so each is an exception, caught by
its type, as httpx's and the OpenAI SDK's are: a view that wants "output or
its own answer" writes one ``except WalletCallError``, one that cares writes
more, and a failure can never be read as an output. The same exceptions
end ``async for`` over a ``WalletStream`` (as httpx's streamed responses do),
which a status on a result could not. A page still cannot tell the outcomes
apart (specs/byoa-sites.md): only the server's code and logs learn which.

This module never holds a socket. When the pairing's live connection is in
this process (the hub's ``connections``, ``byoa.hub``), the call goes to it
directly and its outcome comes back through a ``LocalReply``; otherwise it
travels over the hub's transport (``byoa.transport``) to the process that
holds the connection, and the outcome comes back to the caller's own process.
An address found stale on the way (``events.GONE``: the connection left it
before the call reached any wallet) is read again from the database and the
call sent once more. The exception comes at once when the wallet is away,
when the call is over the grant (skill, model, expiry, ``maxParallelCalls``),
when the connection drops mid-call, when no process reads the address's inbox
or the transport fails; within ``BYOA["ACCEPT_SECONDS"]`` when the
connection's process does not acknowledge the call (it died); otherwise at
the latest after ``timeout`` seconds. Every limit is the call's ``Deadline``
(``byoa.deadlines``).

A caller that leaves mid-call (its request or task cancelled, a stream closed
unfinished) cancels the call: the connection frees the grant's slot at once,
in this process or, by an event of the transport, in another; the wallet is
not told (the protocol has no cancel frame) and its late result is dropped.

Results are the wallet's: treat ``output`` as something the visitor typed.

While a call waits, the request's database connection goes back to its pool
(``byoa.database``), so calls waiting on wallets do not use up the pool.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, Protocol

from byoa import events, pairings, protocol
from byoa.database import give_back_pooled_connections
from byoa.deadlines import Deadline
from byoa.events import Failure, ReplyEvent
from byoa.exceptions import (
    CallRefused,
    NoPairing,
    TooManyCalls,
    WalletCallError,
    WalletDeclined,
    WalletLeft,
    WalletOffline,
    WalletProcessGone,
    WalletTimeout,
)
from byoa.hub import Hub, current_hub
from byoa.models import Pairing
from byoa.transport import CallerReply, inbox_of

__all__ = ["WalletStream", "call_wallet", "stream_wallet"]

logger = logging.getLogger(__name__)

# How early the event loop may wake a wait (asyncio's own allowance): a reply that
# gives up with more time than this left did not time out, its transport failed.
_CLOCK_RESOLUTION = time.get_clock_info("monotonic").resolution


async def call_wallet(
    pairing: Pairing | int | None,
    skill: str,
    input: Mapping[str, object],
    params: Mapping[str, object] | None = None,
    *,
    # The call's Deadline (byoa.deadlines), which travels with the call to the connection's
    # own timer: no asyncio.timeout() around the caller could do that.
    timeout: float | None = None,
) -> dict[str, Any] | None:
    """Call the pairing's wallet and return its output object; raise a ``WalletCallError`` saying why not.

    ``pairing`` None (``aget_pairing`` found none) raises ``NoPairing``.
    """
    # Any, not object: the output is the wallet's JSON object, read by the site's
    # code as json.loads's is (untrusted, whatever its type says).
    stream = WalletStream(pairing, skill, input, params, timeout=timeout, stream=False)
    stream._started = True
    async for _delta in stream._events():  # call_wallet's short way: the deltas go unread
        pass
    assert stream.output is not None  # a call that ends without an output raises
    return stream.output


def stream_wallet(
    pairing: Pairing | int | None,
    skill: str,
    input: Mapping[str, object],
    params: Mapping[str, object] | None = None,
    *,
    timeout: float | None = None,
) -> WalletStream:
    """Return a WalletStream of a call made with ``params.stream``: iterate it for the deltas.

    The call starts when the iteration does, and raises as ``call_wallet`` does.
    """
    return WalletStream(pairing, skill, input, params, timeout=timeout, stream=True)


class _Reply(Protocol):
    """Where the caller reads a call's events: a LocalReply, or a transport's reply."""

    unacknowledged: bool

    async def receive(self, deadline: Deadline) -> ReplyEvent | None: ...

    def close(self) -> None: ...


class WalletStream:
    """One call in progress: an async iterator of text deltas, then ``output``.

    ``output`` is None until the call ends with one; when the call fails, the
    iteration raises the ``WalletCallError`` that says why. ``timeout`` bounds
    the whole call, deltas included.
    """

    def __init__(
        self,
        pairing: Pairing | int | None,
        skill: str,
        input: Mapping[str, object],
        params: Mapping[str, object] | None = None,
        *,
        timeout: float | None = None,
        stream: bool = True,
    ) -> None:
        self.pairing = pairing
        self.skill = skill
        self.input = input
        self.params = dict(params or {})
        if stream:
            self.params["stream"] = True
        self.timeout = Deadline.seconds(timeout)
        self.output: dict[str, Any] | None = None  # the wallet's JSON: see call_wallet
        self._started = False
        self._address = ""  # of the connection in another process the call went to

    def __aiter__(self) -> AsyncIterator[str]:
        if self._started:
            raise RuntimeError("A WalletStream can be iterated once.")
        self._started = True
        return self._events()

    async def _events(self) -> AsyncIterator[str]:
        """Yield the call's deltas until its output; raise why it ended without one (the one receive loop)."""
        if self.pairing is None:
            raise NoPairing(self.skill)
        hub = current_hub()
        reply, deadline = await self._send_call(hub)
        resent = False
        try:
            while True:
                message = await reply.receive(deadline)
                if message is None:  # the wait ended with nothing heard
                    raise self._unanswered(hub, reply, deadline)
                # Every event has a type (byoa.events builds them all); ACCEPTED never reaches here.
                if message["type"] == events.CHUNK:
                    yield message["delta"]
                elif message["type"] == events.RESULT:
                    if message["ok"] and message["output"] is not None:
                        self.output = message["output"]
                        return
                    raise self._failed(message.get("failure"))
                elif message["type"] == events.GONE:
                    # No wallet saw the call: the address was stale. Read it again and resend, once.
                    if not message["process"]:  # nobody reads that inbox at all
                        hub.processes.suspect(inbox_of(self._address))
                    hub.addresses.forget(self._pk, self._address)
                    if resent:
                        raise WalletOffline(self._pk, self.skill) if message["process"] else self._gone()
                    resent = True
                    reply, deadline = await self._send_call(hub, deadline, fresh=True)
        finally:
            reply.close()  # a stream left unfinished leaves nothing waiting behind

    def _unanswered(self, hub: Hub, reply: _Reply, deadline: Deadline) -> WalletCallError:
        """Return why a reply gave up: no acknowledgement, its transport failed, or the timeout."""
        if reply.unacknowledged:  # nothing heard at all: the connection's process is taken for dead
            hub.processes.suspect(inbox_of(self._address))
            return self._gone()
        if deadline.remaining() > _CLOCK_RESOLUTION:  # given up before the deadline: the transport failed
            return self._gone()
        return WalletTimeout(self._pk, self.skill, self.timeout)

    def _failed(self, failure: Failure | None) -> WalletCallError:
        """Return the exception of a failed result's ``failure`` (``byoa.events.Failure``)."""
        pk, skill = self._pk, self.skill
        if failure == "declined":
            return WalletDeclined(pk, skill)
        if failure == "refused":
            return CallRefused(pk, skill)
        if failure == "too_many":
            return TooManyCalls(pk, skill)
        if failure == "closing":
            return WalletOffline(pk, skill)
        if failure == "left":
            return WalletLeft(pk, skill)
        if failure == "timeout":
            return WalletTimeout(pk, skill, self.timeout)
        if failure == "transport":
            return self._gone()
        return WalletCallError(pk, skill)  # a newer process's reason, or none from an older one

    def _gone(self) -> WalletProcessGone:
        return WalletProcessGone(self._pk, self.skill)

    async def _send_call(
        self, hub: Hub, deadline: Deadline | None = None, *, fresh: bool = False
    ) -> tuple[_Reply, Deadline]:
        """Hand the call to the pairing's live connection; return (where its outcome comes, the deadline).

        Raise ``WalletOffline`` when the pairing has no live connection, and
        ``WalletProcessGone`` when the transport could not send the call.
        """
        reply, deadline = await self._hand_over(hub, deadline, fresh)
        try:
            await give_back_pooled_connections()  # nothing of the database is needed while we wait
        except BaseException:  # cancelled here, before the caller's loop owns the reply: cancel the call
            reply.close()
            raise
        return reply, deadline

    async def _hand_over(self, hub: Hub, deadline: Deadline | None, fresh: bool) -> tuple[_Reply, Deadline]:
        deadline = Deadline.start(self.timeout) if deadline is None else deadline
        pk = self._pk
        body = protocol.call_input(self.input)  # encoded once, here
        connection = hub.connections.get(pk)
        if connection is not None:
            # The connection's timer ends the call at the deadline and tells us,
            # so that a result racing the deadline is either delivered or
            # receipted as failed, never both.
            reply = LocalReply()
            await connection.start_call(reply, self.skill, self.params, body, deadline)
            return reply, deadline
        # A process that calls beats too, so that it sweeps stopped processes even while it holds no wallet.
        await hub.start()
        address = await pairings.live_channel(pk, fresh=fresh)
        if not address:  # away, paused, revoked, unknown, or its process taken for dead
            raise WalletOffline(pk, self.skill)
        self._address = address
        # The connection's process answers or acknowledges within the window; silence means it is
        # gone (byoa.processes).
        deadline = deadline.awaiting_acceptance()
        sent: CallerReply | None = await hub.transport.send_call(
            address, self.skill, self.params, body, deadline
        )
        if sent is None:  # the transport's warning says why
            raise self._gone()
        return sent, deadline

    @property
    def _pk(self) -> int:
        assert self.pairing is not None  # _events raises NoPairing first
        return self.pairing.pk if isinstance(self.pairing, Pairing) else self.pairing


class LocalReply:
    """A caller in the connection's own process: events go straight to it.

    It waits with no timer of its own: the connection ends every call it
    takes, with the result, with its timer at the call's deadline, or when it
    is gone (``byoa.consumers``).
    """

    __slots__ = ("_events", "_waiter", "cancel")

    unacknowledged = False  # the connection is right here: there is no acknowledgement to miss

    def __init__(self) -> None:
        # Lighter than an asyncio.Queue, which a call would build and drop each time.
        self._events: deque[ReplyEvent] = deque()
        self._waiter: asyncio.Future[None] | None = None
        # Set by the connection that took the call: it forgets the call and frees its slot.
        self.cancel: Callable[[], None] | None = None

    def _put(self, event: ReplyEvent) -> None:
        self._events.append(event)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def send(self, event: ReplyEvent) -> None:
        """Hand the event to the caller."""
        self._put(event)

    def expired(self) -> None:
        """Tell the caller its call timed out: the connection's timer is the one that counts."""
        self._put(events.failed("timeout"))

    def close(self) -> None:
        """Stop the call if it is still in flight (its caller left): the grant's slot is freed at once."""
        cancel, self.cancel = self.cancel, None
        if cancel is not None:
            cancel()

    async def receive(self, deadline: Deadline) -> ReplyEvent:
        """Return the next event for the caller (the connection keeps the deadline)."""
        while not self._events:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._events.popleft()
