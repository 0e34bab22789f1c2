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
processes that may wait for it at once; raise it for ``byoa.*`` (every BYOA
channel: ``CHANNEL_PREFIX``) with the layer's ``channel_capacity`` option, as
this project's settings do for Redis.

The process registers its inbox in the database when it opens it
(``byoa.processes``), so that other processes can tell a live connection from
the address left behind by a process that died. The inbox acknowledges each
call at once (``events.ACCEPTANCE``), before the connection sends it to its
wallet: a caller that hears nothing knows within seconds that the process is
gone. The reader survives channel-layer errors (Redis restarting, say): it
tries again with a backoff of at most ``MAX_BACKOFF`` seconds.

A connection whose wallet sends nothing (not even its ping) for one and a half
times ``BYOA["PING_SECONDS"]`` is silent, half-open most likely: it is closed
and its calls fail at once.

Entries come and go with their connections (``byoa.consumers``). Pausing or
revoking a pairing in the admin drops its entry here at once and asks the
connection to close; should that close be lost (the channel layer delivers at
most once), the connection closes itself within a minute, when its periodic
status check finds the pairing no longer active.
"""

import asyncio
import itertools
import logging

from byoa import events, processes
from byoa.conf import byoa_setting
from byoa.replies import ChannelReply

__all__ = ["add", "addressed", "close_address", "count", "discard", "drop", "get", "inbox_of", "join", "leave", "open_address"]

logger = logging.getLogger(__name__)

SEPARATOR = "#"
# The prefix of every channel BYOA opens in a process, its inbox and its callers'
# reply channels alike: channels-redis reads all of a process's channels that
# share a prefix with one blocking pop, so with two prefixes a reply would wait
# for the inbox's pop to time out (5 s) before anyone read it.
CHANNEL_PREFIX = "byoa"
# The longest wait between two attempts to read the inbox after channel-layer errors.
MAX_BACKOFF = 2.0
# A wallet is silent after this many ping intervals without a frame.
SILENT_PINGS = 1.5

# pairing id -> the connection (a byoa.consumers.WalletConsumer) serving it here
_connections = {}
# connection key -> connection, for events addressed to one connection
_by_key = {}
_keys = itertools.count(1)
# (event loop, inbox channel, reader task, registration task, silence watch task) of this process
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


async def join(layer):
    """Take part as a process that holds connections: open the inbox, register and beat (it sweeps too)."""
    await _inbox_channel(layer)


def leave():
    """Stop taking part in this process: stop reading the inbox, beating and watching for silence.

    The record stays until the others sweep it. For a test suite whose
    database ends with each test; a server process leaves at its exit.
    """
    global _inbox
    if _inbox is not None:
        for task in _inbox[2:]:
            task.cancel()
        _inbox = None
    processes.forget()


def close_address(address):
    """Stop delivering events sent to this address (the connection is gone)."""
    _by_key.pop(address.rpartition(SEPARATOR)[2], None)


def inbox_of(address):
    """Return the inbox of the process that holds the connection at ``address``, or "" for a plain channel."""
    channel, separator, _key = address.rpartition(SEPARATOR)
    return channel if separator else ""


def _attached():
    """Return [(pairing id, address)] of the connections this process serves."""
    return [(pairing_id, connection.channel_name) for pairing_id, connection in _connections.items()]


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
        channel = await layer.new_channel(CHANNEL_PREFIX)
        reader = loop.create_task(_read_inbox(layer, channel), name="byoa-inbox")
        registered = loop.create_task(processes.register(channel, _attached), name="byoa-register")
        watcher = loop.create_task(_watch_silence(), name="byoa-silence")
        _inbox = (loop, channel, reader, registered, watcher)
    if not _inbox[3].done():
        # Other processes must find the record before any pairing names this inbox.
        # Shielded: a connection that goes away meanwhile must not cancel it for the others.
        await asyncio.shield(_inbox[3])
    return _inbox[1]


async def _read_inbox(layer, channel):
    failures = 0
    while True:
        try:
            event = await layer.receive(channel)
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            failures += 1
            # One failure alone is routine: redis-py 8 times an idle blocking pop
            # out at its socket timeout. Failures in a row are not.
            logger.log(logging.WARNING if failures > 1 else logging.DEBUG,
                       "BYOA inbox could not be read (%s); trying again", type(exc).__name__)
            await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2**failures))
            continue
        failures = 0
        connection = _by_key.get(event.get("connection"))
        if connection is not None:
            # A task each: a connection whose wallet reads slowly must not hold up the others.
            asyncio.ensure_future(_deliver(layer, connection, event))
        elif event.get("type") == events.CALL:
            # The connection is gone since its address was read: fail the call now, not at its timeout.
            asyncio.ensure_future(ChannelReply(layer, event["reply"]).send(events.FAILED))


async def _deliver(layer, connection, event):
    try:
        if event.get("type") == events.CALL:
            await ChannelReply(layer, event["reply"]).send(events.ACCEPTANCE)
        await connection.dispatch(event)
    except Exception:  # one bad event must not go unnoticed, nor stop the inbox
        logger.exception("BYOA connection could not handle a channel-layer event")


async def _watch_silence():
    """Close the connections whose wallets stopped sending, every quarter of the silence bound (a second at most)."""
    loop = asyncio.get_running_loop()
    while True:
        limit = byoa_setting("PING_SECONDS") * SILENT_PINGS
        # At most a second, so that a changed setting takes effect soon; a pass costs a comparison per connection.
        await asyncio.sleep(min(limit / 4, 1.0))
        now = loop.time()
        for connection in list(_connections.values()):
            if now - connection.heard > limit:
                asyncio.ensure_future(connection.silent())
