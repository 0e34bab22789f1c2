"""
Where a connection sends the outcome and the streamed deltas of a call: back
to its caller, in this process or in another.

A connection does not care which: it calls ``await reply.send(event)`` with one
of the events of ``byoa.events`` (``result``, ``chunk``, ``FAILED``).
"""

import asyncio
import logging

from channels.exceptions import ChannelFull

from byoa.events import FAILED

logger = logging.getLogger(__name__)


class LocalReply:
    """A caller in the connection's own process: events go into its queue."""

    __slots__ = ("queue",)

    def __init__(self):
        self.queue = asyncio.Queue()

    async def send(self, event):
        """Hand the event to the caller."""
        self.queue.put_nowait(event)

    def expired(self):
        """Tell the caller its call timed out: the connection's timer is the one that counts."""
        self.queue.put_nowait(FAILED)

    async def receive(self):
        """Return the next event for the caller."""
        return await self.queue.get()


class ChannelReply:
    """A caller reached over the channel layer, at its own reply channel."""

    __slots__ = ("layer", "channel")

    def __init__(self, layer, channel):
        self.layer = layer
        self.channel = channel

    def expired(self):
        """Do nothing: a caller in another process timed out on its own clock already."""

    async def send(self, event):
        """Send the event to the caller's channel; a full channel drops it (the caller's timeout ends the call)."""
        try:
            await self.layer.send(self.channel, event)
        except ChannelFull:
            logger.warning("BYOA channel full; a message for a caller was dropped")

    async def receive(self):
        """Return the next event on the caller's channel."""
        return await self.layer.receive(self.channel)
