"""
How a call's events reach its caller: ``Call`` (one call's events, as its caller
reads them), the wallet connections of this process (``connections``: a call to
one of them goes to it directly), and this process's one reply channel
(``replies``), on which the events of calls sent to other processes come back,
matched by call id. Every event between processes is signed (``byoa.delivery.signing``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from collections import deque
from collections.abc import Mapping
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, get_channel_layer

from byoa.delivery.signing import sign_event, verified_event

__all__ = [
    "Call",
    "Connection",
    "Reply",
    "RemoteReply",
    "connections",
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
connections: dict[int, Connection] = {}

# The longest pause between two attempts to read the reply channel after channel-layer errors.
MAX_BACKOFF = 2.0


def new_call_id() -> int:
    """Return a random call id: a JSON number a JavaScript wallet keeps exact, that no one can guess."""
    return secrets.randbits(53)


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
        await _layer().send(channel, sign_event(event))
    except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
        logger.warning("BYOA could not send a %s event (%s)", event.get("type"), type(exc).__name__)
        return False
    return True


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

    async def channel(self) -> str:
        """Return the reply channel, opening it (and starting its reader) on this loop and layer if need be."""
        layer, loop = _layer(), asyncio.get_running_loop()
        task = self._opening
        if task is None or task.get_loop() is not loop or self._layer is not layer or _failed(task):
            if self._reader is not None and self._reader.get_loop() is loop:
                self._reader.cancel()  # the layer changed (a test's settings): stop reading the old one
            self._layer = layer
            # A context of its own: the reader outlives the request that happens to open it.
            self._opening = task = loop.create_task(self._open(layer), context=contextvars.Context())
        return await asyncio.shield(task)  # a caller that leaves does not stop it for the others

    async def _open(self, layer: BaseChannelLayer) -> str:
        # The pub/sub layer subscribes here, so an event published from now on waits for the reader.
        name = await layer.new_channel()
        self._reader = asyncio.get_running_loop().create_task(self._read(layer, name))
        return name

    async def _read(self, layer: BaseChannelLayer, name: str) -> None:
        failures = 0
        while True:
            try:
                event = await layer.receive(name)
            except Exception as exc:  # a Redis restart: the layer reconnects; try again, backing off
                failures += 1
                logger.warning("BYOA reply channel could not be read (%s); trying again", type(exc).__name__)
                await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2**failures))
                continue
            failures = 0
            verified = verified_event(event)
            if verified is None:
                logger.warning("BYOA dropped a reply event without a valid MAC")
                continue
            call = self._calls.get(verified.get("id"))  # type: ignore[arg-type]  # an int, or nobody's
            if call is not None:  # else its caller is done with it: a late event is dropped
                await call.send(verified)

    async def send_call(self, channel: str, call: Call, event: Mapping[str, object]) -> bool:
        """Send a call event to a connection's channel; its events come to ``call``. False: not sent."""
        reply = await self.channel()
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
        raise RuntimeError(
            "BYOA needs a channel layer: set CHANNEL_LAYERS (the in-memory one for one process)."
        )
    return layer


#: This process's reply channel.
replies = Replies()
