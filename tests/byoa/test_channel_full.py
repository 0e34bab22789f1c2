"""
A full channel (channels-redis shares one capacity among a process's BYOA channels) makes an
event wait for room, within a bound, rather than be dropped at once; past the bound it is refused.
Driven on Channels' own in-memory layer with a capacity of one.
"""

import asyncio

import pytest
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from byoa.transport import send_when_room


async def test_an_event_for_a_full_channel_goes_once_the_reader_makes_room():
    layer = InMemoryChannelLayer(capacity=1)
    await layer.send("byoa.x", {"type": "first"})
    waiting = asyncio.ensure_future(send_when_room(layer, "byoa.x", {"type": "second"}, 5.0))
    assert (await layer.receive("byoa.x"))["type"] == "first"
    async with asyncio.timeout(5):
        await waiting
        assert (await layer.receive("byoa.x"))["type"] == "second"


async def test_an_event_for_a_channel_that_stays_full_is_refused_after_its_bound():
    layer = InMemoryChannelLayer(capacity=1)
    await layer.send("byoa.x", {"type": "first"})
    async with asyncio.timeout(5):
        with pytest.raises(ChannelFull):
            await send_when_room(layer, "byoa.x", {"type": "second"}, 0.1)
