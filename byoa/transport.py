"""
The cross-process path of calls, over the channel layer: one inbox per
process, read by one task, and addresses that name who reads behind it.

A connection in another process is known only from the database
(``byoa.pairings.live_channel``, which returns its address). One channel-layer
channel per process (its inbox) serves everything of BYOA in that process: an
address is ``<inbox channel>#<key>``. The connection a call goes to is
``<inbox>#<connection key>`` (``addressed`` turns it into the inbox and an
event that names the key); the caller that waits for the call's events is
``<its own inbox>#<call id>``, and the events for it carry the id (``call``),
matched to its ``InboxReply`` in this process. Nothing is opened, subscribed or
left behind per call or per idle wallet, so the layer's per-channel work does
not grow with either, and on channels-redis's pub/sub layer a call costs one
PUBLISH each way. ``#`` never occurs in a channel name, so an address splits
one way only. The inbox is one channel, so on channels-redis's core layer its
capacity (100 events by default) bounds the events from other processes that
may wait for it at once; raise it for ``byoa.*`` (the inbox's prefix:
``CHANNEL_PREFIX``) with that layer's ``channel_capacity`` option. The pub/sub
layer has no capacity: it holds nothing.

The layer delivers at most once, and pub/sub only to who is subscribed at
that moment. So:

- A caller is listening before its call goes: its inbox is read from the
  moment the process opens it (``open`` sends the inbox a probe and waits for
  it, so a reply can never be published before its caller listens), and its
  ``InboxReply`` is registered before the call is sent.
- A caller never waits past its deadline for an event that was lost. The
  process that holds the connection acknowledges a call
  (``events.ACCEPTANCE``) only when its connection sends the caller nothing
  within a quarter of ``BYOA["ACCEPT_SECONDS"]`` (``ACCEPT_AFTER``): any event
  from that process says it is alive, so a call answered sooner costs one
  event each way. A caller that hears nothing within the acceptance window of
  its deadline (``byoa.deadlines``) takes the process for dead; after hearing
  from it, the caller looks at its record once a beat
  (``byoa.processes.is_beating``), so a process that dies mid-call ends its
  callers' waits within ``BYOA["STALE_SECONDS"]``.
- What the layer loses on its own way (Redis restarted or away) ends at once
  too: while callers wait, the transport probes its own inbox every
  ``PROBE_SECONDS``; a probe that does not come back within
  ``PROBE_WAIT_SECONDS``, or a send that fails, means events for this process
  may have been lost, and every call this process waits on ends with the
  ``transport`` failure (``WalletProcessGone``), not at its deadline. A call
  that goes unacknowledged blames the other process (``byoa.processes.suspect``)
  only when the layer has not failed here lately and this process's own inbox
  hears a probe now: otherwise the transport is to blame, and the other process
  is not taken for dead for it.

A caller that leaves before its call's outcome (its request cancelled, a
stream closed) sends the connection ``events.cancel`` on its way out
(``InboxReply.close``), which frees the call's slot at once, as a caller in
the connection's own process does. It is sent once and not waited for: a
cancel that is lost leaves the call to end at its deadline, as every call
without one does. A call that names a connection no longer at its address
gets ``events.LEFT`` at once: it reached no wallet, so the caller may look the
address up again and resend it (``byoa.calls``).

The reader survives channel-layer errors (channels-redis's core layer raises
redis-py's while Redis restarts; its pub/sub layer reconnects and subscribes
again by itself): it tries again with a backoff of at most ``MAX_BACKOFF``
seconds. Every event carries a MAC (``byoa.signing``, a key derived from
``SECRET_KEY``): one without a valid MAC is dropped and logged, as if it had
never been sent.

This is the one part of the hub (``byoa.hub``) that knows the channel layer,
and it uses only the layer's documented API (``new_channel``, ``send``,
``receive``), so any layer works: channels' in-memory layer in one process,
channels-redis's pub/sub or core layer across processes. Every transport
offers the methods of ``Transport``, declared here beside the address format
they share.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import secrets
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

from byoa import events
from byoa.conf import byoa_setting
from byoa.events import CancelEvent, NoticeEvent, ReplyEvent
from byoa.replies import InboxReply, RemoteCaller
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
    "Transport",
    "addressed",
    "inbox_of",
]

logger = logging.getLogger(__name__)

SEPARATOR = "#"
# The prefix of the channel BYOA opens in a process, its inbox: channels-redis's core layer
# reads a process's channels that share a prefix with one blocking pop.
CHANNEL_PREFIX = "byoa"
# The longest wait between two attempts to read the inbox after channel-layer errors.
MAX_BACKOFF = 2.0
# How long an event for a full channel is tried again before it is dropped (the core layer's
# capacity: a burst waits for the reader to drain it).
FULL_SECONDS = 2.0
# The share of BYOA["ACCEPT_SECONDS"] a call may go without any event before its acknowledgement is sent.
ACCEPT_AFTER = 0.25
# While callers wait, the inbox is probed this often (one probe in flight at a time) ...
PROBE_SECONDS = 0.5
# ... and a probe not back this soon means the inbox missed what was sent to it meanwhile. As long
# as the acceptance window: a loop too busy to read its inbox in time fails its calls either way.
PROBE_WAIT_SECONDS = 2.0
# How long open() waits for the inbox's first probe.
OPEN_SECONDS = 5.0


class ChannelLayer(Protocol):
    """What the transport needs of a channel layer (channels' in-memory and channels-redis's layers do it)."""

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


def addressed(
    address: str, event: Mapping[str, object], field: str = "connection"
) -> tuple[str, Mapping[str, object]]:
    """Return (channel, event) that deliver ``event`` to whom ``address`` names behind its inbox.

    ``field`` says who that is: a connection (its key) or a caller (``"call"``, its call id).
    """
    channel, separator, key = address.rpartition(SEPARATOR)
    if not separator:  # a plain channel name: whoever reads it reads the event as it is
        return address, event
    return channel, {**event, field: key}


def inbox_of(address: str) -> str:
    """Return the inbox of the process that holds the connection at ``address``, or "" for a plain channel."""
    channel, separator, _key = address.rpartition(SEPARATOR)
    return channel if separator else ""


def _cancelling() -> bool:
    """Return True when the running task itself is being cancelled."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


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


class ChannelLayerTransport:
    """Calls between processes over the channel layer: this process's inbox and what reads behind it."""

    def __init__(self, connections: Connections, alias: str | None = None) -> None:
        self.connections = connections  # whom the inbox delivers calls and notices to
        self.alias = alias
        self.inbox = ""
        self._reader: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        # Call id -> the reply of a call this process waits on.
        self._waiting: dict[str, InboxReply] = {}
        # Reply address -> the timer that acknowledges a call that came from another process.
        self._unaccepted: dict[str, asyncio.TimerHandle] = {}
        # Probe id -> the future its arrival on the inbox resolves.
        self._probes: dict[str, asyncio.Future[None]] = {}
        self._failed_at = -math.inf  # loop time of the last failure of the layer seen here
        self._check: asyncio.Future[bool] | None = None  # the probe unheard calls share
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
        """Open this process's inbox, start reading it, and return its channel name once it reads."""
        layer = self.layer
        self.inbox = await layer.new_channel(CHANNEL_PREFIX)
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read(layer, self.inbox), name="byoa-inbox")
        # Other processes learn the inbox from the process's record, written after this: what they
        # send it then is read (pub/sub delivers only to who is subscribed when it is published).
        if not await self._probe(OPEN_SECONDS):
            logger.warning("BYOA inbox did not hear its own probe within %s s", OPEN_SECONDS)
        self._watch = loop.create_task(self._watch_inbox(), name="byoa-probe")
        return self.inbox

    def cancel(self) -> None:
        """Stop reading the inbox; the calls this process waits on end at once."""
        for task in (self._reader, self._watch, self._check):
            if task is not None:
                task.cancel()
        self._end_waiting()
        for timer in self._unaccepted.values():
            timer.cancel()
        self._unaccepted.clear()

    async def aclose(self) -> None:
        """Stop reading the inbox and wait until the reader and the probe have stopped."""
        self.cancel()
        tasks = [task for task in (self._reader, self._watch) if task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)

    def address(self, key: str) -> str:
        """Return the address by which other processes reach what this key names behind the inbox."""
        return f"{self.inbox}{SEPARATOR}{key}"

    # -- the caller's side

    async def send_call(
        self, address: str, skill: str, params: dict[str, object], body: str, deadline: Deadline
    ) -> InboxReply | None:
        """Send a call to the connection at ``address``; return where its events come (None: not sent)."""
        call_id = secrets.token_hex(8)  # random: a forger on the layer cannot guess the next one
        reply = self._waiting[call_id] = InboxReply(self, call_id, inbox_of(address))  # before the send
        event = events.call(reply.address, skill, params, body, deadline.remaining())
        channel, addressed_event = addressed(address, event)
        window = deadline.wait_until(False) - asyncio.get_running_loop().time()
        try:
            sent = await self.send(channel, addressed_event, "a call", window)
        except BaseException:  # cancelled mid-send: the call may have gone all the same, so cancel it
            self.forget(reply)
            self._send_cancel(address, reply.address)
            raise
        if not sent:
            self.forget(reply)
            return None
        reply.cancel = functools.partial(self._send_cancel, address, reply.address)
        return reply

    def forget(self, reply: InboxReply) -> None:
        """Match no more events to this reply (its call ended, or its caller left)."""
        if self._waiting.get(reply.call_id) is reply:
            del self._waiting[reply.call_id]

    def failed_since(self, moment: float) -> bool:
        """Return True when the layer failed here (a lost probe, a failed send) at or after loop time ``moment``."""
        return self._failed_at >= moment

    def _send_cancel(self, address: str, caller: str) -> None:
        """Tell the connection at ``address`` that the caller at ``caller`` left (not waited for)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop to send it on (a stream finalized at exit): the deadline ends it
            return
        self._in_background(self.notify(address, events.cancel(caller)))

    # -- the connection's side

    def reply_to(self, channel: str) -> RemoteCaller:
        """Return the caller of a call that came from another process (``channel``: its reply address)."""
        return RemoteCaller(self, channel)

    def answered(self, caller: str) -> None:
        """The connection sent the caller at ``caller`` something, or the call ended: no acknowledgement."""
        timer = self._unaccepted.pop(caller, None)
        if timer is not None:
            timer.cancel()

    def _expect_answer(self, caller: str) -> None:
        """Acknowledge the call of the caller at ``caller`` unless its connection answers it soon."""
        delay = byoa_setting("ACCEPT_SECONDS") * ACCEPT_AFTER
        timer = asyncio.get_running_loop().call_later(delay, self._acknowledge, caller)
        self._unaccepted[caller] = timer

    def _acknowledge(self, caller: str) -> None:
        if self._unaccepted.pop(caller, None) is not None:
            self._in_background(RemoteCaller(self, caller).send(events.ACCEPTANCE))

    async def send_to_caller(self, address: str, event: ReplyEvent) -> None:
        """Send an event of a call to its caller at ``address`` (its inbox and call id); a lost one is dropped."""
        channel, addressed_event = addressed(address, event, "call")
        await self.send(channel, addressed_event, "a message for a caller")

    async def notify(self, address: str, event: NoticeEvent | CancelEvent) -> None:
        """Send an event to the connection at ``address`` (wherever it is); if it cannot go, it is dropped."""
        channel, addressed_event = addressed(address, event)
        await self.send(channel, addressed_event, "a notice")

    async def send(
        self, channel: str, event: Mapping[str, object], what: str, seconds: float = FULL_SECONDS
    ) -> bool:
        """Send a signed event; return False when it could not go (logged as ``what`` was not sent)."""
        try:
            await send_when_room(self.layer, channel, sign_event(event), seconds)
        except ChannelFull:
            logger.warning("BYOA channel full; %s was not sent", what)
            return False
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            logger.warning("BYOA channel layer failed; %s was not sent (%s)", what, type(exc).__name__)
            self._failed()
            return False
        return True

    # -- the inbox

    async def _read(self, layer: ChannelLayer, inbox: str) -> None:
        failures = 0
        while True:
            try:
                event = await layer.receive(inbox)
            # The layer's backend has its own errors (redis-py's ConnectionError ...).
            except Exception as exc:
                failures += 1
                # One failure alone is routine: redis-py 8 times an idle blocking pop of the core
                # layer out at its default socket timeout. Failures in a row are not.
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
            try:
                self._handle(verified)
            except Exception:  # one bad event must not go unnoticed, nor stop the inbox
                logger.exception("BYOA inbox could not handle an event")

    def _handle(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        call_id = event.get("call")
        if call_id is not None:  # for a caller in this process
            reply = self._waiting.get(call_id) if isinstance(call_id, str) else None
            if reply is not None:  # else it is done with the call: a late event is dropped
                reply.put(cast(ReplyEvent, event))  # an event built by byoa.events, plus "call"
            return
        if kind == events.PROBE:
            arrived = self._probes.get(event.get("probe"))  # type: ignore[arg-type]  # a str, or not ours
            if arrived is not None and not arrived.done():
                arrived.set_result(None)
            return
        connection = self.connections.by_key(event.get("connection"))
        caller = event.get("reply")
        if kind == events.CALL and isinstance(caller, str):
            if connection is None:
                # Gone since its address was read: the caller hears now, not at its deadline; no
                # wallet saw the call, so it may look the address up again and resend it.
                self._in_background(RemoteCaller(self, caller).send(events.LEFT))
                return
            self._expect_answer(caller)
        elif kind == events.CANCEL and isinstance(caller, str):
            self.answered(caller)  # the caller left: it waits for no acknowledgement either
        if connection is not None:
            # A task each: a connection whose wallet reads slowly must not hold up the others.
            self._in_background(self._deliver(connection, event))

    async def _deliver(self, connection: Connection, event: dict[str, Any]) -> None:
        try:
            await connection.dispatch(event)
        except Exception:  # one bad event must not go unnoticed, nor stop the inbox
            logger.exception("BYOA connection could not handle a channel-layer event")

    def _in_background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    # -- knowing that the inbox still reads

    async def _probe(self, seconds: float) -> bool:
        """Send the inbox a probe; return True when it came back within ``seconds`` (or the inbox is full)."""
        probe_id = secrets.token_hex(8)
        arrived = self._probes[probe_id] = asyncio.get_running_loop().create_future()
        try:
            await self.layer.send(self.inbox, sign_event({"type": events.PROBE, "probe": probe_id}))
            await asyncio.wait_for(arrived, seconds)
        except ChannelFull:  # a backlog, not a loss: the calls in it end by their own deadlines
            return True
        except TimeoutError:
            return False
        except Exception as exc:  # the layer's backend has its own errors (redis-py's ConnectionError ...)
            logger.warning("BYOA inbox could not be probed (%s)", type(exc).__name__)
            return False
        finally:
            del self._probes[probe_id]
        return True

    async def inbox_reads(self, seconds: float) -> bool | None:
        """Return whether the inbox hears a probe now (None: no answer within ``seconds``, the caller's bound).

        The calls that go unheard at once share one probe; a lost one ends the calls waiting (``_failed``).
        """
        if self._check is None or self._check.done():
            self._check = asyncio.ensure_future(self._checked())
        check = self._check
        try:
            return await asyncio.wait_for(asyncio.shield(check), seconds)
        except TimeoutError:
            return None
        except asyncio.CancelledError:
            if check.cancelled() and not _cancelling():  # the transport stopped (cancel), not this caller
                return None
            raise

    async def _checked(self) -> bool:
        if await self._probe(PROBE_WAIT_SECONDS):
            return True
        logger.warning("BYOA inbox missed its own probe; the calls waiting on it end now")
        self._failed()
        return False

    async def _watch_inbox(self) -> None:
        """While calls wait, probe the inbox; when a probe is lost, end those calls now (``_failed``)."""
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            if self._waiting:
                await self.inbox_reads(PROBE_WAIT_SECONDS)

    def _failed(self) -> None:
        """The layer lost events here, or may have: the calls this process waits on end now."""
        self._failed_at = asyncio.get_running_loop().time()
        self._end_waiting()

    def _end_waiting(self) -> None:
        waiting, self._waiting = self._waiting, {}
        for reply in waiting.values():
            reply.put(events.FAILED)

    def counts(self) -> dict[str, int]:
        """Return what the transport holds now (for tests that show nothing grows per call)."""
        return {
            "waiting": len(self._waiting),
            "unaccepted": len(self._unaccepted),
            "probes": len(self._probes),
            "deliveries": len(self._deliveries),
        }
