"""
How a call's events reach its caller: ``Call`` (one call's events, as its caller
reads them), the wallet connections of this process (``wallet_connections``: a call to
one of them goes to it directly), and this process's one reply channel
(``replies``), on which the events of calls sent to other processes come back,
matched by call id, and on which it hears that a pairing's connection moved.
Every event between processes is signed (``byoa.delivery.signing``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import random
import time
from collections import deque
from collections.abc import Mapping
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, get_channel_layer
from django.core.exceptions import ImproperlyConfigured

from byoa import clock
from byoa.delivery.signing import sign_event, verified_event

__all__ = [
    "Call",
    "Connection",
    "MOVES",
    "Reply",
    "RemoteReply",
    "announce_move",
    "wallet_connections",
    "new_call_id",
    "replies",
    "send_event",
]

logger = logging.getLogger(__name__)


class Reply(Protocol):
    """Where a connection sends a call's events: a ``Call`` here, or a ``RemoteReply``."""

    async def send(self, event: dict[str, Any]) -> None: ...


class Connection(Protocol):
    """What a caller in this process needs of a wallet's connection (``byoa.consumers.WalletConsumer``)."""

    channel_name: str

    async def start_call(
        self, reply: Reply, call_id: int, skill: str, params: dict[str, object], body: str, timeout: float
    ) -> None: ...

    def cancel(self, call_id: object) -> None: ...


#: pairing id -> its wallet's connection, when this process holds it.
wallet_connections: dict[int, Connection] = {}

# The longest pause between two attempts to read the reply channel after channel-layer errors.
MAX_BACKOFF = 2.0
#: The group of every process's reply channel: it hears each pairing's connection move (``byoa.moved``).
MOVES = "byoa.moves"
# Channels' core Redis layer forgets a group's member after a day (group_expiry): join again hourly.
JOIN_AGAIN_SECONDS = 3600.0


# Call ids need to be unique among a connection's calls, not secret: a result counts only on the
# connection its call went to, and events between processes are signed. So a seeded generator, no
# system call per call (docs: performance); a forked process seeds its own.
_ids = random.Random()
os.register_at_fork(after_in_child=_ids.seed)


def new_call_id() -> int:
    """Return a random call id: a JSON number a JavaScript wallet keeps exact (53 bits)."""
    return _ids.getrandbits(53)


class Call:
    """One call's events (``byoa.chunk``, then one ``byoa.result``), in order, as its caller reads them."""

    __slots__ = ("_events", "_waiter", "id")

    def __init__(self, call_id: int) -> None:
        self.id = call_id
        # A deque and one future: lighter than an asyncio.Queue, which every call would build and drop.
        self._events: deque[dict[str, Any]] = deque()
        self._waiter: asyncio.Future[None] | None = None

    async def send(self, event: dict[str, Any]) -> None:
        """Hand the caller an event of its call."""
        self._events.append(event)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def receive(self, until: float | None) -> dict[str, Any] | None:
        """Return the call's next event, or None when none came by loop time ``until``.

        ``until`` None: no timer of its own, for a call whose connection is in this process
        (its own timer ends every call it holds, ``WalletConsumer.start_call``).
        """
        loop = asyncio.get_running_loop()
        while not self._events:
            if until is not None and loop.time() >= until:
                return None
            waiter = self._waiter = loop.create_future()
            timer = None if until is None else loop.call_at(until, _wake, waiter)
            try:
                await waiter
            finally:
                if timer is not None:
                    timer.cancel()
                self._waiter = None
        return self._events.popleft()


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


async def send_event(channel: str, event: Mapping[str, object]) -> bool:
    """Send a signed event to a channel; return False when the layer failed (logged, never raised)."""
    try:
        await _layer().send(channel, sign_event(event, channel))
    except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
        logger.warning("BYOA could not send a %s event (%s)", event.get("type"), type(exc).__name__)
        return False
    return True


async def announce_move(pairing_id: int) -> None:
    """Tell every process that the pairing's connection moved (attached, detached): it reads it again."""
    try:
        await _layer().group_send(MOVES, sign_event({"type": "byoa.moved", "pairing": pairing_id}, MOVES))
    except Exception as exc:  # unheard, a process keeps the old channel until its time is up
        logger.warning("BYOA could not announce a move (%s)", type(exc).__name__)


class RemoteReply:
    """The caller of a call that came from another process: its events go to that process's reply channel."""

    __slots__ = ("call_id", "channel")

    def __init__(self, channel: str, call_id: int) -> None:
        self.channel = channel
        self.call_id = call_id

    async def send(self, event: dict[str, Any]) -> None:
        """Send the event; one that cannot go is dropped (the caller's wait is bounded)."""
        await send_event(self.channel, {**event, "id": self.call_id})


class Replies:
    """This process's reply channel: opened on first use, read by one task, its events matched by call id.

    One channel for the process, not one per call: on channels-redis's pub/sub
    layer a channel stays subscribed until its ``receive()`` is cancelled.
    """

    def __init__(self) -> None:
        self._calls: dict[int, Call] = {}
        self._opening: asyncio.Task[str] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._layer: BaseChannelLayer | None = None
        # pairing id -> (its connection's channel, until when it is kept): read once, then trusted
        # until a byoa.moved event for the pairing or its time is up (docs: delivery).
        self._channels: dict[int, tuple[str, float]] = {}
        self._moves_heard = 0
        self._join_again = 0.0

    async def channel(self) -> str:
        """Return the reply channel, opening it (and starting its reader) on this loop and layer if need be."""
        layer, loop = _layer(), asyncio.get_running_loop()
        task = self._opening
        if task is None or not self._opened_on(layer, loop):
            if self._reader is not None and self._reader.get_loop() is loop:
                self._reader.cancel()  # the layer changed (a test's settings): stop reading the old one
            self._layer = layer
            self._channels.clear()  # kept while this channel heard every move; a new one has heard none
            # A context of its own: the reader outlives the request that happens to open it.
            self._opening = task = loop.create_task(self._open(layer), context=contextvars.Context())
        return await asyncio.shield(task)  # a caller that leaves does not stop it for the others

    def _opened_on(self, layer: BaseChannelLayer, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether the reply channel is open, or opening, on this layer and loop."""
        task = self._opening
        return task is not None and task.get_loop() is loop and self._layer is layer and not _failed(task)

    async def _open(self, layer: BaseChannelLayer) -> str:
        # The pub/sub layer subscribes here, so an event published from now on waits for the reader.
        name = await layer.new_channel()
        await layer.group_add(MOVES, name)
        self._join_again = time.monotonic() + JOIN_AGAIN_SECONDS
        self._reader = asyncio.get_running_loop().create_task(self._read(layer, name))
        return name

    async def _read(self, layer: BaseChannelLayer, name: str) -> None:
        failures = 0
        while True:
            try:
                event = await layer.receive(name)
            except Exception as exc:  # a Redis restart: the layer reconnects; try again, backing off
                self._channels.clear()  # a move may have gone unheard meanwhile
                failures += 1
                logger.warning("BYOA reply channel could not be read (%s); trying again", type(exc).__name__)
                await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2**failures))
                continue
            failures = 0
            # A move comes to the group, every other event to this channel alone.
            verified = verified_event(event, MOVES if event.get("type") == "byoa.moved" else name)
            if verified is None:
                logger.warning("BYOA dropped a reply event without a valid MAC")
                continue
            if verified.get("type") == "byoa.moved":
                self._moves_heard += 1
                self._channels.pop(verified.get("pairing"), None)  # type: ignore[arg-type]
                continue
            call = self._calls.get(verified.get("id"))  # type: ignore[arg-type]  # an int, or nobody's
            if call is not None:  # else its caller is done with it: a late event is dropped
                await call.send(verified)

    def known_channel(self, pairing_id: int) -> str | None:
        """Return the channel kept for the pairing's connection, or None when none is kept."""
        kept = self._channels.get(pairing_id)
        return kept[0] if kept is not None and kept[1] > clock.now().timestamp() else None

    def moves_heard(self) -> int:
        """Return how many moves this channel has heard: taken before a read, given to ``keep_channel``."""
        return self._moves_heard

    def keep_channel(self, pairing_id: int, channel: str, seconds: float, moves_heard: int) -> None:
        """Keep the channel read for the pairing's connection for ``seconds``, or until it moves.

        Only if this process hears moves (its reply channel is open on this loop and layer) and
        heard none while the channel was read: that move may have been the pairing's.
        """
        opened = self._opening is not None and self._opening.done()
        if (
            seconds > 0
            and moves_heard == self._moves_heard
            and opened
            and self._opened_on(_layer(), asyncio.get_running_loop())
        ):
            self._channels[pairing_id] = (channel, clock.now().timestamp() + seconds)

    async def send_call(self, channel: str, call: Call, event: Mapping[str, object]) -> bool:
        """Send a call event to a connection's channel; its events come to ``call``. False: not sent."""
        try:
            reply = await self.channel()
            if time.monotonic() > self._join_again:
                self._join_again = time.monotonic() + JOIN_AGAIN_SECONDS
                await _layer().group_add(MOVES, reply)
        except ImproperlyConfigured:
            raise
        except Exception as exc:  # the layer's backend is down (redis-py's ConnectionError ...)
            logger.warning("BYOA could not open its reply channel (%s)", type(exc).__name__)
            return False
        self._calls[call.id] = call  # before the send: the result may come back at once
        if not await send_event(channel, {**event, "id": call.id, "reply": reply}):
            self.forget(call)
            return False
        return True

    def forget(self, call: Call) -> None:
        """Match no more events to this call."""
        self._calls.pop(call.id, None)

    def waiting(self) -> int:
        """Return how many calls wait for events here (a test shows nothing stays behind)."""
        return len(self._calls)


def _failed(task: asyncio.Task[str]) -> bool:
    return task.done() and (task.cancelled() or task.exception() is not None)


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured(
            "BYOA needs a channel layer: set CHANNEL_LAYERS (the in-memory one for one process)."
        )
    return layer


#: This process's reply channel.
replies = Replies()
