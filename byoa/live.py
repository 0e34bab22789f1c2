"""
The live wallet connections of this process, and the one address by which
other processes reach each of them.

A call to a wallet whose connection lives in the caller's process goes to that
connection directly (``byoa.calls``): no channel layer, no database query. A
connection in another process is known only from the database
(``byoa.pairings.live_channel``, which returns its address) and reached over
the channel layer.

One channel-layer channel per process (its inbox) serves all the process's
connections: an address is ``<inbox channel>#<connection key>``, and
``addressed`` turns it into the inbox and an event that names the key. A
connection therefore holds no channel, queue or task of its own while it
waits, so idle wallets cost little and the channel layer's per-channel work
does not grow with them. ``#`` never occurs in a channel name, so an address
splits one way only. The inbox is one channel, so the channel layer's
per-channel capacity (100 events by default) bounds the events from other
processes that may wait for it at once; a site with many processes can raise
it for ``byoa.process.*`` with the layer's ``channel_capacity`` option.

Entries come and go with their connections (``byoa.consumers``). Pausing or
revoking a pairing in the admin drops its entry here at once and asks the
connection to close; should that close be lost (the channel layer delivers at
most once), the connection closes itself within a minute, when its periodic
status check finds the pairing no longer active.
"""

import asyncio
import itertools
import logging

from byoa import events
from byoa.replies import ChannelReply

__all__ = ["add", "addressed", "close_address", "count", "discard", "drop", "get", "open_address"]

logger = logging.getLogger(__name__)

SEPARATOR = "#"

# pairing id -> the connection (a byoa.consumers.WalletConsumer) serving it here
_connections = {}
# connection key -> connection, for events addressed to one connection
_by_key = {}
_keys = itertools.count(1)
# (event loop, inbox channel, reader task) of this process
_inbox = None


def add(pairing_id, connection):
    """Record the connection that now serves the pairing in this process."""
    _connections[pairing_id] = connection


def discard(pairing_id, connection):
    """Forget the connection, unless a newer one of the same pairing took its place."""
    if _connections.get(pairing_id) is connection:
        del _connections[pairing_id]


def drop(pairing_ids):
    """Forget the connections of these pairings (they were paused or revoked)."""
    for pairing_id in pairing_ids:
        _connections.pop(pairing_id, None)


def get(pairing_id):
    """Return the connection serving the pairing in this process, or None."""
    return _connections.get(pairing_id)


def count():
    """Return how many pairings have a live connection in this process (for tests and benchmarks)."""
    return len(_connections)


async def open_address(connection, layer):
    """Give a connection the address other processes reach it by, and return it."""
    key = str(next(_keys))
    _by_key[key] = connection
    return f"{await _inbox_channel(layer)}{SEPARATOR}{key}"


def close_address(address):
    """Stop delivering events sent to this address (the connection is gone)."""
    _by_key.pop(address.rpartition(SEPARATOR)[2], None)


def addressed(address, event):
    """Return (channel, event) that deliver ``event`` to the connection at ``address``."""
    channel, separator, key = address.rpartition(SEPARATOR)
    if not separator:  # a plain channel name: a connection that reads its own channel
        return address, event
    return channel, {**event, "connection": key}


async def _inbox_channel(layer):
    global _inbox
    loop = asyncio.get_running_loop()
    if _inbox is None or _inbox[0] is not loop or _inbox[2].done():
        channel = await layer.new_channel("byoa.process.")
        _inbox = (loop, channel, loop.create_task(_read_inbox(layer, channel), name="byoa-inbox"))
    return _inbox[1]


async def _read_inbox(layer, channel):
    while True:
        event = await layer.receive(channel)
        connection = _by_key.get(event.get("connection"))
        if connection is not None:
            # A task each: a connection whose wallet reads slowly must not hold up the others.
            asyncio.ensure_future(_deliver(connection, event))
        elif event.get("type") == events.CALL:
            # The connection is gone since its address was read: fail the call now, not at its timeout.
            await ChannelReply(layer, event["reply"]).send(events.FAILED)


async def _deliver(connection, event):
    try:
        await connection.dispatch(event)
    except Exception:  # one bad event must not go unnoticed, nor stop the inbox
        logger.exception("BYOA connection could not handle a channel-layer event")
