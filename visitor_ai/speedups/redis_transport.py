"""
The cross-process path of calls on Redis, written on redis-py
(``redis.asyncio``): one inbox per process read by one connection, replies
matched by call id in the caller's process, every write of a loop iteration
pipelined: the ``redis_transport`` speed-up (``visitor_ai.speedups``), which
the hub (``byoa.hub``) uses in place of the channel layer;
it offers what ``byoa.transport.Transport`` declares, with the same addresses
(``<inbox>#<connection key>``).

Why redis-py and not channels-redis (issue 26): channels-redis sends several
Redis commands per call, most of them client round trips and none pipelined
(ZREMRANGEBYSCORE, ZCOUNT, ZADD, EXPIRE per send; EVAL, BZPOPMIN, a backup ZADD
and a cleaner's ZPOPMIN per receive, under a process-wide receive lock), and
the CPU of a cross-process call goes to those round trips in both processes,
not to Redis. Its pub/sub layer costs less but leaves every reply channel
subscribed, so the caller's memory grows with every call. Here a call costs
one PUBLISH each way, however many calls share a pipeline, and the acceptance
only when the call takes long. ``benchmarks/byoa_calls.py --two-processes``
prints both side by side (CPU per call and Redis commands per call);
docs/explanation/performance.md gives the figures.

Why pub/sub and not a list (RPUSH / BLPOP; the issue's prototype measured the
two alike, so speed does not decide): a list keeps what a reader missed, but
what it keeps is a call whose caller may long have given up, delivered later
with a fresh deadline; its key outlives a killed process unless every push
also sets a TTL (a second command per write); and a push cannot tell that
nobody reads the list. PUBLISH answers how many readers got
the event, so a call to a process whose inbox nobody reads (killed, or Redis
restarted and the reader not yet subscribed again) fails at once
(``events.UNREAD``) instead of at the acceptance window, and nothing is left
behind in Redis. What pub/sub drops, the caller's deadline ends, as the
channel layer's at-most-once delivery always required.

Events are JSON (orjson, already the frames' encoder), not msgpack: on a call
event and a result orjson encodes and decodes faster than msgpack (measured
for issue 26: docs/explanation/performance.md), with no second codec.

- Every event is published behind its MAC (``byoa.signing``, a key derived
  from ``SECRET_KEY``); the reader drops one without a valid MAC.
- A caller's call gets a random id from this process; its reply channel is
  ``<caller's inbox>#<id>``, and the events for it come to the caller's inbox
  carrying the id (``call``), matched to its ``byoa.replies.InboxReply`` (the
  channel layer's too) in ``_waiting``.
  The entry goes when the call ends (result, deadline, ``close``): nothing is
  subscribed, stored or left behind per call. A caller that leaves before the
  outcome publishes ``events.cancel`` to the connection on its way out
  (``InboxReply.close``), which frees the call's slot at once; a cancel that
  is lost leaves the call to end at its deadline (``byoa.transport``).
- A process's inbox acknowledges a call (``events.ACCEPTANCE``) only when the
  connection has sent the caller nothing within a quarter of
  ``BYOA["ACCEPT_SECONDS"]`` (``ACCEPT_AFTER``): a call answered sooner needs
  no acknowledgement, since any event from the connection tells the caller
  that its process is alive.
- The reader survives Redis going away: it reconnects with a backoff of at
  most ``MAX_BACKOFF`` seconds and subscribes again; it pings an idle
  subscription every ``IDLE_PING_SECONDS`` so that a Redis gone silent is
  noticed too. When its subscription breaks, the calls this process waits on
  end at once (their events may have been published while nobody read) and
  the writer takes a new connection for its next batch. A batch whose write
  fails is written once more on a new connection; should that fail too, its
  calls end at once (the caller gets ``WalletProcessGone``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, cast

import orjson

from byoa import events
from byoa.conf import byoa_setting
from byoa.events import CancelEvent, NoticeEvent, ReplyEvent
from byoa.replies import InboxReply
from byoa.signing import seal, unseal
from byoa.transport import CHANNEL_PREFIX, SEPARATOR, addressed, inbox_of

if TYPE_CHECKING:
    from redis.asyncio import Connection, ConnectionPool

    from byoa.connections import Connection as WalletConnection
    from byoa.connections import Connections
    from byoa.deadlines import Deadline

__all__ = ["RedisCaller", "RedisTransport"]

logger = logging.getLogger(__name__)

# The longest wait between two attempts to reach Redis after errors.
MAX_BACKOFF = 2.0
# An idle subscription is pinged this often; a ping unanswered for as long means Redis is gone.
IDLE_PING_SECONDS = 5.0
# The share of BYOA["ACCEPT_SECONDS"] a call may go without any event before its acknowledgement is sent.
ACCEPT_AFTER = 0.25
# How long open() waits for the first subscription; a Redis still away is the reader's to retry.
OPEN_SECONDS = 2.0
# redis-py's socket bounds: a refused connection fails within the first, a Redis gone silent the second.
CONNECT_SECONDS = 2.0
SOCKET_SECONDS = 5.0
# What PUBLISH answers when the write failed: not a count of readers.
FAILED_WRITE = -1


def _encode(event: object) -> bytes:
    # Behind its MAC (byoa.signing): the reader drops whatever another hand published.
    return seal(orjson.dumps(event))


def _new_connection(pool: ConnectionPool) -> Connection:
    """Return a connection of the pool's kind (redis://, rediss://, unix://), not yet connected, of our own."""
    # The pool is a factory here: its make_connection neither keeps nor counts what it makes.
    return cast("Connection", pool.make_connection())  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated


class RedisCaller:
    """The caller of a call that came from another process, reached through its inbox."""

    __slots__ = ("call_id", "inbox", "transport")

    def __init__(self, transport: RedisTransport, inbox: str, call_id: str) -> None:
        self.transport = transport
        self.inbox = inbox
        self.call_id = call_id

    async def send(self, event: ReplyEvent) -> None:
        """Send the event to the caller (in order with this process's other writes); a failed write drops it."""
        self.transport.answered(self)
        self.transport.publish(self.inbox, _encode({**event, "call": self.call_id}))

    def expired(self) -> None:
        """The caller timed out on its own clock already: only its pending acknowledgement goes."""
        self.transport.answered(self)


class _Writer:
    """Every PUBLISH of a loop iteration in one pipeline, on one connection, in the order they were asked."""

    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool
        self._batch: list[tuple[str, bytes]] = []
        self._done: asyncio.Future[list[int]] | None = None  # the counts of the batch being gathered
        self._wanted = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stale = False  # set when the reader lost Redis: the next batch goes on a new connection

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._write_forever(), name="byoa-redis-writer")

    def cancel(self) -> asyncio.Task[None] | None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
        self._finish(self._batch, self._done)
        self._batch, self._done = [], None
        return task

    def reset(self) -> None:
        """Write the next batch on a new connection (Redis went away: the one held may be dead)."""
        self._stale = True

    def publish(self, channel: str, payload: bytes) -> tuple[asyncio.Future[list[int]], int]:
        """Queue a PUBLISH; return (the future of its batch's reader counts, its index in the batch)."""
        if self._done is None:
            self._done = asyncio.get_running_loop().create_future()
            self._wanted.set()
        self._batch.append((channel, payload))
        return self._done, len(self._batch) - 1

    async def _write_forever(self) -> None:
        connection: Connection | None = None
        try:
            while True:
                await self._wanted.wait()
                self._wanted.clear()
                batch, done = self._batch, self._done
                self._batch, self._done = [], None
                if done is None:
                    continue
                if self._stale and connection is not None:
                    await connection.disconnect(nowait=True)
                    connection = None
                self._stale = False
                counts = None
                # Twice at most: a connection that died with Redis fails the first write, and a new
                # one gets the batch through (Redis restarted) or fails too (Redis away: give up now).
                for attempt in (1, 2):
                    if connection is None:
                        connection = _new_connection(self.pool)
                    try:
                        counts = await self._publish(connection, batch)
                        break
                    except Exception as exc:  # redis-py's ConnectionError, TimeoutError ...
                        logger.log(
                            logging.WARNING if attempt == 2 else logging.INFO,
                            "BYOA could not write to Redis (%s)%s",
                            type(exc).__name__,
                            "" if attempt == 2 else "; trying once more on a new connection",
                        )
                        await connection.disconnect(nowait=True)
                        connection = None
                if counts is None:
                    counts = [FAILED_WRITE] * len(batch)
                if not done.done():
                    done.set_result(counts)
        finally:
            if connection is not None:
                await connection.disconnect(nowait=True)

    @staticmethod
    async def _publish(connection: Connection, batch: list[tuple[str, bytes]]) -> list[int]:
        # The connection's own packing and parser, without the client's pipeline object: a
        # pipeline here is one write and one read per command, and nothing else of it is needed.
        packed = connection.pack_commands([("PUBLISH", channel, payload) for channel, payload in batch])
        await connection.send_packed_command(packed, check_health=False)
        return [int(await connection.read_response()) for _ in batch]

    @staticmethod
    def _finish(batch: list[tuple[str, bytes]], done: asyncio.Future[list[int]] | None) -> None:
        if done is not None and not done.done():
            done.set_result([FAILED_WRITE] * len(batch))


class RedisTransport:
    """Calls between processes on Redis pub/sub: this process's inbox, its callers' replies by call id."""

    def __init__(self, connections: Connections, url: str) -> None:
        self.connections = connections  # whom the inbox delivers to
        self.url = url
        self.inbox = ""
        self._pool: ConnectionPool | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader: asyncio.Task[None] | None = None
        self._writer: _Writer | None = None
        self._subscribed: asyncio.Event | None = None
        # Caller's side: call id -> the reply that waits for its events.
        self._waiting: dict[str, InboxReply] = {}
        # Connection's side: (caller's inbox, call id) -> the timer that sends the call's acknowledgement.
        self._unaccepted: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self._failed_at = -math.inf  # loop time the inbox's subscription last broke
        # The events being handed to connections: the loop keeps only a weak reference to a task.
        self._deliveries: set[asyncio.Future[None]] = set()
        # The reader and writer cancelled and not yet awaited (aclose waits until they closed their sockets).
        self._stopped: list[asyncio.Task[None]] = []

    # -- life cycle

    @property
    def is_open(self) -> bool:
        """Return True while the inbox is read."""
        return self._reader is not None and not self._reader.done()

    def _connection_pool(self) -> ConnectionPool:
        from redis.asyncio import ConnectionPool  # redis-py comes with the "scale" extra

        # RESP2: a subscription's messages are then plain replies, read in order by read_response
        # (under redis-py 8's default, RESP3, they are out-of-band pushes), and no HELLO per connect.
        return ConnectionPool.from_url(
            self.url, protocol=2, socket_connect_timeout=CONNECT_SECONDS, socket_timeout=SOCKET_SECONDS
        )

    async def open(self) -> str:
        """Open this process's inbox, start reading it, and return its name.

        It waits up to ``OPEN_SECONDS`` for the subscription; should Redis be
        away, the reader keeps trying, and calls to this process fail at once
        until it is back (nobody reads the inbox: ``events.UNREAD``).
        """
        self._stop()  # what ran on another loop, or a reader that died: start afresh
        self._loop = asyncio.get_running_loop()
        # A factory of connections only (make_connection): the reader and the writer hold one each.
        self._pool = self._connection_pool()
        # Random, so that a process restarted on the same host and pid gets another: an
        # address never names a later connection. "#" never occurs in it.
        self.inbox = f"{CHANNEL_PREFIX}.{secrets.token_hex(12)}"
        self._subscribed = asyncio.Event()
        self._writer = _Writer(self._pool)
        self._writer.start()
        self._reader = self._loop.create_task(self._read(self._pool, self.inbox), name="byoa-inbox")
        try:
            async with asyncio.timeout(OPEN_SECONDS):
                await self._subscribed.wait()
        except TimeoutError:
            logger.warning("BYOA inbox not subscribed yet (Redis away?); trying again in the background")
        return self.inbox

    def cancel(self) -> None:
        """Stop reading and writing at once; the calls this process waits on end (``WalletProcessGone``)."""
        self._stop()

    def _stop(self) -> list[asyncio.Task[None]]:
        stopped = []
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
            stopped.append(reader)
        writer, self._writer = self._writer, None
        if writer is not None and (task := writer.cancel()) is not None:
            stopped.append(task)
        for timer in self._unaccepted.values():
            timer.cancel()
        self._unaccepted.clear()
        for reply in list(self._waiting.values()):
            reply.put(events.FAILED)
        self._waiting.clear()
        self._stopped = [task for task in (*self._stopped, *stopped) if not task.done()]
        return stopped

    async def aclose(self) -> None:
        """Stop reading and writing, and wait until the connections to Redis are closed."""
        self._stop()
        stopped, self._stopped = self._stopped, []
        loop = asyncio.get_running_loop()  # a task of a loop gone (a test's) is not this one's to wait for
        await asyncio.gather(*(task for task in stopped if task.get_loop() is loop), return_exceptions=True)

    def address(self, key: str) -> str:
        """Return the address by which other processes reach the connection with this key."""
        return f"{self.inbox}{SEPARATOR}{key}"

    # -- the caller's side

    async def send_call(
        self, address: str, skill: str, params: dict[str, object], body: str, deadline: Deadline
    ) -> InboxReply | None:
        """Send a call to the connection at ``address``; return where its events come (None: not sent)."""
        if self._writer is None:
            return None
        channel, event = addressed(address, events.call("", skill, params, body, deadline.remaining()))
        call_id = secrets.token_hex(8)  # random: a forger on Redis cannot guess the next one
        # Before the write: the result may come right after.
        reply = self._waiting[call_id] = InboxReply(self, call_id, inbox_of(address))
        done, index = self._writer.publish(channel, _encode({**event, "reply": reply.address}))
        readers = (await done)[index]
        if readers == FAILED_WRITE:
            self.forget(reply)
            return None
        if readers == 0:  # nobody reads that inbox: the process is gone, or not subscribed yet
            reply.put(events.UNREAD)
        else:
            reply.cancel = functools.partial(self._send_cancel, address, reply.address)
        return reply

    def forget(self, reply: InboxReply) -> None:
        """Match no more events to this reply (its call ended, or its caller left)."""
        if self._waiting.get(reply.call_id) is reply:
            del self._waiting[reply.call_id]

    def failed_since(self, moment: float) -> bool:
        """Return True when the inbox's subscription broke at or after loop time ``moment``."""
        return self._failed_at >= moment

    async def inbox_reads(self, seconds: float) -> bool | None:
        """Return whether the inbox is subscribed now (its reader knows: it pings an idle subscription)."""
        return self._subscribed is not None and self._subscribed.is_set() and self.is_open

    def _send_cancel(self, address: str, caller: str) -> None:
        """Tell the connection at ``address`` that the caller at ``caller`` left (queued, not waited for)."""
        channel, event = addressed(address, events.cancel(caller))
        self.publish(channel, _encode(event))

    # -- the connection's side

    def reply_to(self, channel: str) -> RedisCaller:
        """Return the caller of a call that came from another process (``channel``: its reply channel)."""
        inbox, _separator, call_id = channel.rpartition(SEPARATOR)
        return RedisCaller(self, inbox, call_id)

    def publish(self, channel: str, payload: bytes) -> None:
        """Queue a write whose outcome nobody awaits (a failed one is logged by the writer)."""
        if self._writer is not None:
            self._writer.publish(channel, payload)

    def answered(self, caller: RedisCaller) -> None:
        """The connection sent the caller something, or the call ended: no acknowledgement is needed."""
        timer = self._unaccepted.pop((caller.inbox, caller.call_id), None)
        if timer is not None:
            timer.cancel()

    def _acknowledge(self, inbox: str, call_id: str) -> None:
        if self._unaccepted.pop((inbox, call_id), None) is not None:
            self.publish(inbox, _encode({**events.ACCEPTANCE, "call": call_id}))

    async def notify(self, address: str, event: NoticeEvent | CancelEvent) -> None:
        """Send an event to the connection at ``address`` (wherever it is); if it cannot go, it is dropped."""
        channel, addressed_event = addressed(address, event)
        payload = _encode(addressed_event)
        try:
            loop = asyncio.get_running_loop()
            if loop is self._loop and self._writer is not None:
                self._writer.publish(channel, payload)
                return
            # Another loop (the admin's thread under WSGI, a management command): redis-py's
            # connections belong to the loop that opened them, so this one gets its own.
            connection = _new_connection(self._connection_pool())
            try:
                await connection.send_command("PUBLISH", channel, payload)
                await connection.read_response()
            finally:
                await connection.disconnect()
        except Exception as exc:  # redis-py's own errors: at most once, as the channel layer's
            logger.warning("BYOA could not send a notice to a connection (%s)", type(exc).__name__)

    # -- the inbox's reader

    async def _read(self, pool: ConnectionPool, inbox: str) -> None:
        failures = 0
        while True:
            connection = _new_connection(pool)
            try:
                await connection.send_command("SUBSCRIBE", inbox)  # it connects first
                await connection.read_response()  # the subscription's confirmation
                if failures:
                    logger.info("BYOA inbox subscribed again after %d failed attempt(s)", failures)
                failures = 0
                assert self._subscribed is not None  # set by open(), which starts this task
                self._subscribed.set()
                await self._read_subscription(connection)
            except Exception as exc:  # redis-py's ConnectionError, TimeoutError ...
                failures += 1
                logger.log(
                    logging.WARNING if failures > 1 else logging.INFO,
                    "BYOA inbox could not be read (%s); trying again",
                    type(exc).__name__,
                )
                self._lost_redis()
            finally:
                await connection.disconnect(nowait=True)
            await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2**failures))

    def _lost_redis(self) -> None:
        """Called when the inbox's subscription broke: what was published to it meanwhile is lost.

        The calls this process waits on end now (their events may be among the
        lost), not at their deadlines, and the writer's connection, likely dead
        with the same Redis, is replaced before its next batch.
        """
        if self._writer is not None:
            self._writer.reset()
        if self._subscribed is not None:
            self._subscribed.clear()
        self._failed_at = asyncio.get_running_loop().time()
        waiting, self._waiting = self._waiting, {}
        for reply in waiting.values():
            reply.put(events.FAILED)

    async def _read_subscription(self, connection: Connection) -> None:
        pinged = False
        while True:
            # A read with its own timeout answers None when it passes (redis-py keeps the parser's state).
            message = await connection.read_response(timeout=IDLE_PING_SECONDS)
            if message is None:
                if pinged:
                    raise TimeoutError("Redis did not answer the inbox's ping")
                pinged = True
                await connection.send_command("PING", check_health=False)
                continue
            pinged = False
            if message[0] == b"message":
                payload = unseal(message[2])
                if payload is None:  # not from a process of this site (byoa.signing)
                    logger.warning("BYOA dropped an inbox event without a valid MAC")
                    continue
                try:
                    self._handle(orjson.loads(payload))
                except Exception:  # one bad event must not go unnoticed, nor stop the inbox
                    logger.exception("BYOA inbox could not handle an event")

    def _handle(self, event: dict[str, Any]) -> None:
        call_id = event.get("call")
        if call_id is not None:  # for a caller in this process
            reply = self._waiting.get(call_id)
            if reply is not None:  # else it is done with the call: a late event is dropped
                reply.put(event)  # type: ignore[arg-type]  # an event built by byoa.events, plus "call"
            return
        connection = self.connections.by_key(event.get("connection"))
        if event.get("type") == events.CALL:
            if not events.is_call(event):  # authenticated, yet not of this version's shape
                logger.warning("BYOA dropped a call event without the fields of a call")
                return
            inbox, _separator, reply_id = str(event["reply"]).rpartition(SEPARATOR)
            if connection is None:
                # Gone since its address was read: the caller hears now, and may look again and resend.
                self.publish(inbox, _encode({**events.LEFT, "call": reply_id}))
                return
            self._expect_answer(inbox, reply_id)
        elif event.get("type") == events.CANCEL and isinstance(event.get("reply"), str):
            # The caller left: it waits for no acknowledgement either.
            inbox, _separator, reply_id = event["reply"].rpartition(SEPARATOR)
            timer = self._unaccepted.pop((inbox, reply_id), None)
            if timer is not None:
                timer.cancel()
        if connection is not None:
            # A task each: a connection whose wallet reads slowly must not hold up the others.
            self._in_background(self._deliver(connection, event))

    def _expect_answer(self, inbox: str, call_id: str) -> None:
        assert self._loop is not None  # the reader runs on the loop open() recorded
        delay = byoa_setting("ACCEPT_SECONDS") * ACCEPT_AFTER
        key = (inbox, call_id)
        self._unaccepted[key] = self._loop.call_later(delay, self._acknowledge, inbox, call_id)

    def _in_background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _deliver(self, connection: WalletConnection, event: dict[str, Any]) -> None:
        try:
            await connection.dispatch(event)
        except Exception:  # one bad event must not go unnoticed, nor stop the inbox
            logger.exception("BYOA connection could not handle an event from Redis")

    def counts(self) -> dict[str, int]:
        """Return what the transport holds now (for tests that show nothing grows per call)."""
        return {
            "waiting": len(self._waiting),
            "unaccepted": len(self._unaccepted),
            "deliveries": len(self._deliveries),
        }
