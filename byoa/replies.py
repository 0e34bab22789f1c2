"""
Where a connection sends the outcome and the streamed deltas of a call: back
to its caller, in this process or in another.

A connection does not care which: it calls ``await reply.send(event)`` with one
of the events of ``byoa.events`` (``result``, ``chunk``, ``FAILED``).
"""

import asyncio
import logging
from collections import deque

from channels.exceptions import ChannelFull

from byoa import events
from byoa.events import FAILED

logger = logging.getLogger(__name__)


class LocalReply:
    """A caller in the connection's own process: events go straight to it.

    It waits with no timer of its own: the connection ends every call it
    takes, with the result, with its timer at the caller's deadline, or when
    it is gone (``byoa.consumers``).
    """

    __slots__ = ("_events", "_waiter")

    unacknowledged = False  # the connection is right here: there is no acknowledgement to miss

    def __init__(self):
        # Lighter than an asyncio.Queue, which a call would build and drop each time.
        self._events = deque()
        self._waiter = None

    def _put(self, event):
        self._events.append(event)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def send(self, event):
        """Hand the event to the caller."""
        self._put(event)

    def expired(self):
        """Tell the caller its call timed out: the connection's timer is the one that counts."""
        self._put(FAILED)

    async def receive(self, deadline):
        """Return the next event for the caller (the connection keeps the deadline)."""
        while not self._events:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._events.popleft()


class ChannelReply:
    """A caller reached over the channel layer, at its own reply channel.

    The caller's side sets ``accept_by`` (loop time) when it sends a call:
    until the connection's process acknowledges the call (``events.ACCEPTED``),
    ``receive`` waits no longer than that.
    """

    __slots__ = ("layer", "channel", "accept_by", "unacknowledged")

    def __init__(self, layer, channel, accept_by=None):
        self.layer = layer
        self.channel = channel
        self.accept_by = accept_by
        self.unacknowledged = False  # set when receive gave up for want of the acknowledgement

    def expired(self):
        """Do nothing: a caller in another process timed out on its own clock already."""

    async def send(self, event):
        """Send the event to the caller's channel; if it cannot go, it is dropped (the caller's timeout ends the call)."""
        try:
            await self.layer.send(self.channel, event)
        except ChannelFull:
            logger.warning("BYOA channel full; a message for a caller was dropped")
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            logger.warning("BYOA channel layer failed; a message for a caller was dropped (%s)", type(exc).__name__)

    async def receive(self, deadline):
        """Return the next event on the caller's channel, or None at the deadline (loop time) or on a layer error.

        The caller keeps its own deadline: the channel layer delivers at most
        once, and the connection's process may be gone.
        """
        loop = asyncio.get_running_loop()
        while True:
            until = deadline if self.accept_by is None else min(deadline, self.accept_by)
            remaining = until - loop.time()
            if remaining <= 0:
                self.unacknowledged = until != deadline
                return None
            try:
                event = await asyncio.wait_for(self.layer.receive(self.channel), remaining)
            except TimeoutError:
                self.unacknowledged = until != deadline
                return None
            except Exception as exc:  # as in send: the call cannot end well, so it ends now
                logger.warning("BYOA channel layer failed while a caller waited (%s)", type(exc).__name__)
                return None
            if event.get("type") != events.ACCEPTED:
                return event
            self.accept_by = None
