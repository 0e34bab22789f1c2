"""
The two ends of a call that crosses processes (``byoa.transport``): the
caller's ``InboxReply``, to which this process's inbox hands the events of its
call (on the channel layer and on the ``redis_transport`` speed-up alike: each
is an ``Inbox``), and the channel layer's ``RemoteCaller``, by which a
connection answers a caller in another process.

An ``InboxReply`` waits with the call's deadline: until the connection's
process is heard from, no longer than the acceptance window; after that a
beat at a time, asking whether that process still beats. When it gives up
unheard, it blames that process only when this process's own layer did not
fail (``Inbox.failed_since``, ``Inbox.inbox_reads``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from byoa import events
from byoa.conf import byoa_setting
from byoa.events import ReplyEvent
from byoa.processes import is_beating

if TYPE_CHECKING:
    from byoa.deadlines import Deadline
    from byoa.transport import ChannelLayerTransport

__all__ = ["Inbox", "InboxReply", "RemoteCaller"]


class Inbox(Protocol):
    """What an ``InboxReply`` needs of the transport whose inbox feeds it."""

    def address(self, key: str) -> str:
        """Return the address ``<inbox>#<key>``."""

    def forget(self, reply: InboxReply) -> None:
        """Match no more events to this reply."""

    def failed_since(self, moment: float) -> bool:
        """Return True when the transport failed here at or after loop time ``moment``."""

    async def inbox_reads(self, seconds: float) -> bool | None:
        """Return whether the inbox reads now (None: no answer within ``seconds``)."""


class InboxReply:
    """A call this process sent to another: the events its inbox matched to the call, in order.

    The caller waits on it with the call's deadline: until the connection's
    process is heard from (any event; ``ACCEPTED`` when the call takes long),
    ``receive`` waits no longer than the deadline's acceptance window.
    """

    __slots__ = (
        "_events",
        "_transport",
        "_waiter",
        "acknowledged",
        "address",
        "call_id",
        "cancel",
        "ended",
        "process",
        "sent_at",
        "unacknowledged",
    )

    def __init__(self, transport: Inbox, call_id: str, process: str = "") -> None:
        self._transport = transport  # whose inbox matches events to this reply until the call ends
        self.call_id = call_id
        self.address = transport.address(call_id)  # the reply address the call carries
        self.process = process  # the inbox of the connection's process, watched once it was heard from
        self.sent_at = asyncio.get_running_loop().time()
        self.acknowledged = False
        self.unacknowledged = False  # set when receive gave up for want of the acknowledgement
        self.ended = False  # set when receive returned the call's last event (or gave up)
        self.cancel: Callable[[], None] | None = None  # sends the connection the call's cancel (send_call)
        # Lighter than an asyncio.Queue, which every call would build and drop.
        self._events: deque[ReplyEvent] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, event: ReplyEvent) -> None:
        """Hand the caller an event of its call (from the inbox's reader)."""
        self._events.append(event)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def close(self) -> None:
        """Stop matching events to this call (what still comes is dropped); cancel it if it had not ended."""
        self._transport.forget(self)
        cancel, self.cancel = self.cancel, None
        if cancel is not None and not self.ended:
            cancel()  # the caller left mid-call: the connection frees its slot at once

    async def receive(self, deadline: Deadline) -> ReplyEvent | None:
        """Return the call's next event, or None at the deadline or when the transport failed."""
        loop = asyncio.get_running_loop()
        while True:
            while self._events:
                event = self._events.popleft()
                self.acknowledged = True  # anything from the connection's process says it is alive
                if event["type"] != events.ACCEPTED:
                    # A result or a gone is the last: nothing more comes.
                    return event if event["type"] == events.CHUNK else self._end(event)
            remaining = deadline.wait_until(self.acknowledged) - loop.time()
            if remaining <= 0:
                if deadline.ends_unacknowledged(self.acknowledged):
                    self.unacknowledged = await self._process_is_to_blame(deadline)
                return self._end(None)
            # Once heard from, a beat at a time: the process may die after its acknowledgement.
            watched = self.acknowledged and bool(self.process)
            wait = min(remaining, byoa_setting("BEAT_SECONDS")) if watched else remaining
            waiter = self._waiter = loop.create_future()
            timer = loop.call_later(wait, _wake, waiter)
            try:
                await waiter
            finally:  # cancelled too: the caller is gone, and its close() cancels the call
                timer.cancel()
                self._waiter = None
            if watched and not self._events and wait < remaining and not await is_beating(self.process):
                self.unacknowledged = True  # gone after all: the caller takes its process for dead
                return self._end(None)

    def _end(self, event: ReplyEvent | None) -> ReplyEvent | None:
        """Return the call's last event (None: given up): nothing more is matched to it."""
        self.ended = True
        self._transport.forget(self)
        return event

    async def _process_is_to_blame(self, deadline: Deadline) -> bool:
        """Return True when a call went unheard because of the other process, not of this one's layer.

        Unheard while the layer failed here (within the acceptance window before the
        call or since), or while this process's own inbox does not hear its probe
        now: the transport's fault, and the other process is not taken for dead.
        """
        if self._transport.failed_since(self.sent_at - byoa_setting("ACCEPT_SECONDS")):
            return False
        return await self._transport.inbox_reads(deadline.remaining()) is not False


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class RemoteCaller:
    """The caller of a call that came from another process, reached at its reply address."""

    __slots__ = ("address", "transport")

    def __init__(self, transport: ChannelLayerTransport, address: str) -> None:
        self.transport = transport
        self.address = address  # "<caller's inbox>#<call id>" (or a plain channel that a caller reads)

    async def send(self, event: ReplyEvent) -> None:
        """Send the event to the caller; one that cannot go is dropped (the caller's deadline ends it)."""
        self.transport.answered(self.address)
        await self.transport.send_to_caller(self.address, event)

    def expired(self) -> None:
        """The caller timed out on its own clock already: only its pending acknowledgement goes."""
        self.transport.answered(self.address)
