"""
The cross-process path of calls, over the channel layer: one inbox per
process, the addresses that name a connection behind it, and the reply
channels by which a connection answers a caller in another process.

A connection in another process is known only from the database
(``byoa.pairings.live_channel``, which returns its address). One channel-layer
channel per process (its inbox) serves all the process's connections: an
address is ``<inbox channel>#<connection key>``, and ``addressed`` turns it
into the inbox and an event that names the key. A connection therefore holds
no channel, queue or task of its own while it waits, so idle wallets cost
little and the channel layer's per-channel work does not grow with them. ``#``
never occurs in a channel name, so an address splits one way only. The inbox
is one channel, so the channel layer's per-channel capacity (100 events by
default) bounds the events from other processes that may wait for it at once;
raise it for ``byoa.*`` (every BYOA channel: ``CHANNEL_PREFIX``) with the
layer's ``channel_capacity`` option, as this project's settings do for Redis.

The inbox acknowledges each call at once (``events.ACCEPTANCE``), before the
connection sends it to its wallet: a caller that hears nothing within the
acceptance window of its deadline (``byoa.deadlines``) knows that the process
is gone. After the acknowledgement the caller looks at that process's record
once a beat (``byoa.processes.is_beating``): a process that dies mid-call ends
its callers' waits within ``BYOA["STALE_SECONDS"]``, not at their deadlines.
A caller that leaves before its call's outcome (its request cancelled, a
stream closed) sends the connection ``events.cancel`` on its way out
(``ChannelReply.close``), which frees the call's slot at once, as a caller in
the connection's own process does. It is sent once and not waited for: the
channel layer delivers at most once, and a cancel that is lost leaves the call
to end at its deadline, as every call without one does.
The reader survives channel-layer errors (Redis restarting, say): it
tries again with a backoff of at most ``MAX_BACKOFF`` seconds.

Every event carries a MAC (``byoa.signing``, a key derived from
``SECRET_KEY``): one without a valid MAC, on the inbox or on a caller's
channel, is dropped and logged, as if it had never been sent.

This is the one part of the hub (``byoa.hub``) that knows the channel layer.
Every transport offers the methods of ``Transport``, declared here beside the
address format they share; ``visitor_ai.speedups.redis_transport`` is the
other one (the ``redis_transport`` speed-up). A call that names a connection no longer
at its address gets ``events.LEFT`` at once: it reached no wallet, so the
caller may look the address up again and resend it (``byoa.calls``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

from byoa import events
from byoa.conf import byoa_setting
from byoa.events import CancelEvent, NoticeEvent, ReplyEvent
from byoa.processes import is_beating
from byoa.signing import sign_event, verified_event

if TYPE_CHECKING:
    from byoa.connections import Connection, Connections
    from byoa.deadlines import Deadline
    from byoa.inflight import Reply

__all__ = [
    "CHANNEL_PREFIX",
    "CallerReply",
    "ChannelLayer",
    "ChannelLayerTransport",
    "ChannelReply",
    "Transport",
    "addressed",
    "inbox_of",
]

logger = logging.getLogger(__name__)

SEPARATOR = "#"
# The prefix of every channel BYOA opens in a process, its inbox and its callers'
# reply channels alike: channels-redis reads all of a process's channels that
# share a prefix with one blocking pop, so with two prefixes a reply would wait
# for the inbox's pop to time out (5 s) before anyone read it.
CHANNEL_PREFIX = "byoa"
# The longest wait between two attempts to read the inbox after channel-layer errors.
MAX_BACKOFF = 2.0
# How long an event for a full channel is tried again before it is dropped. A process's BYOA
# channels share one capacity in channels-redis (its default, 100 events, is what a site gets
# by configuring the layer as Channels' docs do): a burst waits for the reader to drain it.
FULL_SECONDS = 2.0


class ChannelLayer(Protocol):
    """What the transport needs of a channel layer (channels' in-memory and Redis layers both do it)."""

    async def new_channel(self, prefix: str = ...) -> str: ...

    async def send(self, channel: str, message: Mapping[str, object]) -> None: ...

    async def receive(self, channel: str) -> dict[str, Any]: ...


class CallerReply(Protocol):
    """Where a caller reads the events of a call it sent to a connection in another process."""

    #: Set when ``receive`` gave up for want of the acknowledgement (the process is taken for dead).
    unacknowledged: bool

    async def receive(self, deadline: Deadline) -> ReplyEvent | None:
        """Return the call's next event (never ``ACCEPTED``), or None at the deadline or on a failure."""

    def close(self) -> None:
        """Stop waiting for the call's events (its caller is done with it; if it had not ended, cancel it)."""


class Transport(Protocol):
    """The cross-process path of calls, as the hub and the callers use it."""

    #: This process's inbox, once open ("" before).
    inbox: str

    @property
    def is_open(self) -> bool:
        """Return True while the inbox is read."""

    async def open(self) -> str:
        """Open this process's inbox, start reading it, and return its name."""

    def cancel(self) -> None:
        """Stop reading the inbox (and end what waits on it) at once."""

    async def aclose(self) -> None:
        """Stop reading the inbox and wait until everything the transport runs has stopped."""

    def address(self, key: str) -> str:
        """Return the address by which other processes reach the connection with this key."""

    async def send_call(
        self, address: str, skill: str, params: dict[str, object], body: str, deadline: Deadline
    ) -> CallerReply | None:
        """Send a call to the connection at ``address``; return where its outcome comes (None: not sent)."""

    def reply_to(self, channel: str) -> Reply:
        """Return the reply of a call that came from another process, whose caller is at ``channel``."""

    async def notify(self, address: str, event: NoticeEvent | CancelEvent) -> None:
        """Send an event to the connection at ``address`` (wherever it is); if it cannot go, it is dropped."""


def addressed(address: str, event: Mapping[str, object]) -> tuple[str, Mapping[str, object]]:
    """Return (channel, event) that deliver ``event`` to the connection at ``address``."""
    channel, separator, key = address.rpartition(SEPARATOR)
    if not separator:  # a plain channel name: a connection that reads its own channel
        return address, event
    return channel, {**event, "connection": key}


def inbox_of(address: str) -> str:
    """Return the inbox of the process that holds the connection at ``address``, or "" for a plain channel."""
    channel, separator, _key = address.rpartition(SEPARATOR)
    return channel if separator else ""


def key_of(address: str) -> str:
    """Return the connection key an address names."""
    return address.rpartition(SEPARATOR)[2]


async def send_when_room(
    layer: ChannelLayer, channel: str, event: Mapping[str, object], seconds: float
) -> None:
    """Send ``event``; while the channel is full, try again for up to ``seconds``, then raise ChannelFull."""
    loop = asyncio.get_running_loop()
    until, pause = loop.time() + seconds, 0.02
    while True:
        try:
            await layer.send(channel, event)
            return
        except ChannelFull:
            if loop.time() + pause > until:
                raise
        await asyncio.sleep(pause)  # a backoff between attempts, bounded by ``seconds``
        pause = min(pause * 2, 0.25)


class ChannelReply:
    """A caller reached over the channel layer, at its own reply channel.

    The caller's side waits on it with the call's deadline: until the
    connection's process acknowledges the call (``events.ACCEPTED``),
    ``receive`` waits no longer than the deadline's acceptance window.
    """

    __slots__ = ("acknowledged", "cancel", "channel", "ended", "layer", "process", "unacknowledged")

    def __init__(self, layer: ChannelLayer, channel: str, process: str = "") -> None:
        self.layer = layer
        self.channel = channel
        self.process = process  # the inbox of the connection's process, watched once it acknowledged
        self.acknowledged = False
        self.unacknowledged = False  # set when receive gave up for want of the acknowledgement
        self.ended = False  # set when receive returned the call's last event (or gave up)
        # The caller's side only: sends the connection the call's cancel (set by send_call).
        self.cancel: Callable[[], None] | None = None

    def expired(self) -> None:
        """Do nothing: a caller in another process timed out on its own clock already."""

    def close(self) -> None:
        """Cancel the call if it has not ended (its caller left): the connection frees its slot at once.

        The reply channel itself is the layer's, and holds nothing of ours.
        """
        cancel, self.cancel = self.cancel, None
        if cancel is not None and not self.ended:
            cancel()

    async def send(self, event: Mapping[str, object]) -> None:
        """Send the event to the caller's channel; one that cannot go is dropped (the deadline ends it)."""
        try:
            await send_when_room(self.layer, self.channel, sign_event(event), FULL_SECONDS)
        except ChannelFull:
            logger.warning("BYOA channel full; a message for a caller was dropped")
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            logger.warning(
                "BYOA channel layer failed; a message for a caller was dropped (%s)", type(exc).__name__
            )

    async def receive(self, deadline: Deadline) -> ReplyEvent | None:
        """Return the next event on the caller's channel, or None at the deadline or on a layer error.

        The caller keeps its own deadline: the channel layer delivers at most
        once, and the connection's process may be gone.
        """
        loop = asyncio.get_running_loop()
        while True:
            remaining = deadline.wait_until(self.acknowledged) - loop.time()
            if remaining <= 0:
                self.unacknowledged = deadline.ends_unacknowledged(self.acknowledged)
                return self._end(None)
            # Once acknowledged, a beat at a time: the process may die after its acknowledgement.
            watched = self.acknowledged and bool(self.process)
            wait = min(remaining, byoa_setting("BEAT_SECONDS")) if watched else remaining
            try:
                event = await asyncio.wait_for(self.layer.receive(self.channel), wait)
            except TimeoutError:
                if wait < remaining:
                    if await is_beating(self.process):
                        continue
                    self.unacknowledged = True  # gone after all: the caller takes its process for dead
                    return self._end(None)
                self.unacknowledged = deadline.ends_unacknowledged(self.acknowledged)
                return self._end(None)
            except Exception as exc:  # as in send: the call cannot end well, so it ends now
                logger.warning("BYOA channel layer failed while a caller waited (%s)", type(exc).__name__)
                return self._end(None)
            verified = verified_event(event)
            if verified is None:  # not from a process of this site (byoa.signing): as if never sent
                logger.warning("BYOA dropped an event without a valid MAC on a caller's channel")
                continue
            if verified.get("type") != events.ACCEPTED:
                # A caller's channel gets only what a connection sends it (byoa.events).
                received = cast(ReplyEvent, verified)
                return received if received["type"] == events.CHUNK else self._end(received)
            self.acknowledged = True

    def _end(self, event: ReplyEvent | None) -> ReplyEvent | None:
        """Return the call's last event (None: given up), noting that nothing more is awaited for it."""
        self.ended = True
        return event


class ChannelLayerTransport:
    """Calls between processes over the channel layer: this process's inbox, its callers' reply channels."""

    def __init__(self, connections: Connections, alias: str | None = None) -> None:
        self.connections = connections  # whom the inbox delivers to
        self.alias = alias
        self.inbox = ""
        self._reader: asyncio.Task[None] | None = None
        # The events being handed to connections: the loop keeps only a weak reference to a task.
        self._deliveries: set[asyncio.Future[None]] = set()

    @property
    def layer(self) -> ChannelLayer:
        """Return the channel layer (channels keeps one per alias; a change of CHANNEL_LAYERS resets it)."""
        layer = get_channel_layer() if self.alias is None else get_channel_layer(self.alias)
        # types-channels' BaseChannelLayer.new_channel takes no prefix, though every layer channels
        # ships does; and without CHANNEL_LAYERS (None) the first call fails, as it always has.
        return cast(ChannelLayer, layer)

    @property
    def is_open(self) -> bool:
        """Return True while the inbox is read."""
        return self._reader is not None and not self._reader.done()

    async def open(self) -> str:
        """Open this process's inbox, start reading it, and return its channel name."""
        layer = self.layer
        self.inbox = await layer.new_channel(CHANNEL_PREFIX)
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read(layer, self.inbox), name="byoa-inbox")
        return self.inbox

    def cancel(self) -> None:
        """Stop reading the inbox."""
        if self._reader is not None:
            self._reader.cancel()

    async def aclose(self) -> None:
        """Stop reading the inbox and wait until the reader has stopped."""
        self.cancel()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    def address(self, key: str) -> str:
        """Return the address by which other processes reach the connection with this key."""
        return f"{self.inbox}{SEPARATOR}{key}"

    async def send_call(
        self, address: str, skill: str, params: dict[str, object], body: str, deadline: Deadline
    ) -> ChannelReply | None:
        """Send a call to the connection at ``address``; return where its outcome comes (None: not sent)."""
        layer = self.layer
        reply = ChannelReply(layer, await layer.new_channel(CHANNEL_PREFIX), inbox_of(address))
        event = events.call(reply.channel, skill, params, body, deadline.remaining())
        try:
            channel, addressed_event = addressed(address, event)
            window = deadline.wait_until(False) - asyncio.get_running_loop().time()
            await send_when_room(layer, channel, sign_event(addressed_event), window)
        except ChannelFull:
            logger.warning("BYOA channel full; a call was not sent")
            return None
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            logger.warning("BYOA channel layer failed; a call was not sent (%s)", type(exc).__name__)
            return None
        reply.cancel = functools.partial(self._send_cancel, address, reply.channel)
        return reply

    def reply_to(self, channel: str) -> ChannelReply:
        """Return the reply of a call that came from another process, whose caller reads ``channel``."""
        return ChannelReply(self.layer, channel)

    async def notify(self, address: str, event: NoticeEvent | CancelEvent) -> None:
        """Send an event to the connection at ``address`` (wherever it is); if it cannot go, it is dropped."""
        channel, addressed_event = addressed(address, event)
        await ChannelReply(self.layer, channel).send(addressed_event)

    def _send_cancel(self, address: str, caller: str) -> None:
        """Tell the connection at ``address`` that the caller at channel ``caller`` left (not waited for)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop to send it on (a stream finalized at exit): the deadline ends it
            return
        self._in_background(self.notify(address, events.cancel(caller)))

    async def _read(self, layer: ChannelLayer, channel: str) -> None:
        failures = 0
        while True:
            try:
                event = await layer.receive(channel)
            # The layer's backend has its own errors (redis-py's ConnectionError ...).
            except Exception as exc:
                failures += 1
                # One failure alone is routine: redis-py 8 times an idle blocking pop
                # out at its socket timeout. Failures in a row are not.
                logger.log(
                    logging.WARNING if failures > 1 else logging.DEBUG,
                    "BYOA inbox could not be read (%s); trying again",
                    type(exc).__name__,
                )
                await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2**failures))
                continue
            failures = 0
            verified = verified_event(event)
            if verified is None:  # not from a process of this site (byoa.signing)
                logger.warning("BYOA dropped an inbox event without a valid MAC")
                continue
            event = verified
            connection = self.connections.by_key(event.get("connection"))
            if connection is not None:
                # A task each: a connection whose wallet reads slowly must not hold up the others.
                self._in_background(self._deliver(layer, connection, event))
            elif event.get("type") == events.CALL and isinstance(event.get("reply"), str):
                # The connection is gone since its address was read: tell the caller now, not at its
                # timeout; no wallet saw the call, so the caller may look again and resend it.
                self._in_background(ChannelReply(layer, event["reply"]).send(events.LEFT))

    def _in_background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _deliver(self, layer: ChannelLayer, connection: Connection, event: dict[str, Any]) -> None:
        try:
            if event.get("type") == events.CALL and isinstance(event.get("reply"), str):
                await ChannelReply(layer, event["reply"]).send(events.ACCEPTANCE)
            await connection.dispatch(event)
        except Exception:  # one bad event must not go unnoticed, nor stop the inbox
            logger.exception("BYOA connection could not handle a channel-layer event")
