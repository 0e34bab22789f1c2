"""
The wallet's WebSocket at ``/byoa/ws``: one consumer per connection.

It only handles the socket: it turns frames into calls of ``pairings`` and
events for callers, and calls into frames. What a frame means is in
``protocol``; the channel-layer events, in ``events``; who may call what, in
``grants``; the server -> wallet API, in ``calls``. Close codes: see
``byoa.protocol``.

A caller in this process hands its call to ``start_call`` directly (the
connection is in its hub's ``connections``, ``byoa.hub``); a caller in another
process sends a ``byoa.call`` event to the connection's address
(``byoa.transport``), which ends in the same method. Each call comes with its
``Deadline`` (``byoa.deadlines``): the connection's timer ends it there.
A caller that leaves before the outcome frees the call's slot at once: one in
this process through its ``LocalReply``, one in another process by a
``byoa.cancel`` event; should that event be lost, the deadline ends the call.

The wallet authenticates only by its hello, and no cookie is read. A
request with an ``Origin`` header is refused at the handshake (HTTP 403),
unless that origin is the endpoint's own (https://game.example.org for
wss://game.example.org/byoa/ws; http:// for ws://): a wallet's WebSocket
client may send that one, but a browser page of another site cannot.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, ClassVar, cast

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from byoa import clock, events, invitations, pairings, protocol, tokens
from byoa.conf import byoa_setting
from byoa.deadlines import Deadline
from byoa.events import CallEvent, CancelEvent, NoticeEvent
from byoa.grants import Grant, warn_unreadable
from byoa.hub import current_hub
from byoa.inflight import InFlight, Pending, Reply
from byoa.inflow import Inflow
from byoa.protocol import CloseCode, Frame

if TYPE_CHECKING:
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, ASGISendEvent
    from channels.consumer import _ChannelScope  # types-channels' scope of a consumer

logger = logging.getLogger(__name__)

# How often a ping marks the pairing seen and re-reads its status: "last seen"
# to the minute is enough, and so is closing within a minute a connection
# whose pause or revoke message the channel layer lost.
TOUCH_SECONDS = 60


class WalletConsumer(AsyncWebsocketConsumer):
    """The server's end of one wallet connection."""

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        """Serve one connection until it is gone, then release what it held, whatever ended it."""
        # Channels' own loop waits on the socket and on a channel of the
        # connection's own, with a new task per message. Here the socket is
        # read in order in this task; events from other processes (calls,
        # replaced, close) come through the process's inbox (byoa.transport)
        # and are handled beside it, as same-process calls are.
        self.scope = scope
        self.base_send = send
        self.pairing_id: int | None = None  # set by a valid hello
        self.token_digest = ""  # the pairing token's digest, set by a valid hello
        self.grant: Grant | None = None  # the grant in force, from the hello on
        self.closing = False
        self.gone = False
        self.calls = InFlight()
        self.inflow = Inflow()  # what the wallet may still send, counted before a frame is parsed
        self.unsolicited = 0
        self.last_touch = 0.0
        # Loop time of the wallet's last frame (the hub closes connections silent too long).
        self.heard = asyncio.get_running_loop().time()
        self.hello_timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Future[None]] = set()
        self.hub = current_hub()  # the one this connection is registered with, to the end
        # Not a channel of its own: the address (byoa.transport) the database keeps for other processes.
        self.channel_name = await self.hub.open_address(self)
        try:
            while True:
                # An ASGI event is a plain dict; channels' dispatch takes it as one.
                await self.dispatch(cast("dict[str, Any]", await receive()))
        except StopConsumer:
            pass
        finally:
            self.hub.close_address(self.channel_name)
            # Normally disconnect() has run; not when the server cancelled this
            # task or a handler raised. The database write is shielded from a
            # second cancellation.
            await asyncio.shield(self._release())

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every message, a
        # thread hop each time (a third of a call's CPU). Every database access
        # here goes through database_sync_to_async, which does that itself.
        # Channels' documented naming: "websocket.receive" is handled by websocket_receive().
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None or message["type"].startswith("_"):
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        """Called when a client opens the socket: refuse pages of other sites, else wait for a hello."""
        if not self._origin_allowed():
            await self._close(CloseCode.NORMAL)  # before accept: the server answers the handshake with 403
            return
        await self.accept()
        loop = asyncio.get_running_loop()
        self.hello_timer = loop.call_later(byoa_setting("HELLO_SECONDS"), self._no_hello)

    def _origin_allowed(self) -> bool:
        """Return True when the handshake has no Origin, or only the endpoint's own."""
        headers = self.scope.get("headers", ())
        origins = [value.decode("latin-1") for name, value in headers if name == b"origin"]
        if not origins:
            return True  # a desktop wallet, or a client library that sends none
        host = next((value.decode("latin-1") for name, value in headers if name == b"host"), "")
        own = invitations.own_origin(host, self.scope.get("scheme") == "wss")
        return bool(own) and all(invitations.origin_of(origin) == own for origin in origins)

    def _closed_for_flooding(self, token: str) -> bool:
        return 1 <= len(token) <= 256 and self.hub.allowances.refuses(tokens.digest(token))

    def _no_hello(self) -> None:
        self._task(self._close(CloseCode.POLICY))

    def _task(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_frame(self, text: str) -> bool:
        """Send a text frame; return False when the socket is already gone."""
        return await self._send_message({"type": "websocket.send", "text": text})

    async def _close(self, code: CloseCode) -> None:
        if not self.closing:
            self.closing = True
            # int(): autobahn rejects any type but int, an IntEnum included.
            await self._send_message({"type": "websocket.close", "code": int(code)})

    async def _send_message(self, message: dict[str, Any]) -> bool:
        if self.gone:
            return False
        try:
            # A cast, not a TypedDict: asgiref.typing requires keys the ASGI spec
            # makes optional ("bytes" beside "text", a close's "reason").
            await self.base_send(cast("ASGISendEvent", message))
        # The wallet's close frame may arrive while we still send (after its
        # bye, say). Each server then raises its own error: uvicorn's
        # ClientDisconnected (an OSError) or RuntimeError, hypercorn's
        # UnexpectedMessageError, granian's RSGIProtocolClosed (a
        # RuntimeError). All mean the socket is gone: its disconnect event
        # follows, or the server ends this task; either way _release runs.
        except Exception as exc:
            self.closing = True
            logger.debug("BYOA socket gone while sending (%s)", type(exc).__name__)
            return False
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Called with each frame: counted first (``byoa.inflow``); binary is ignored, non-JSON closes."""
        self.heard = asyncio.get_running_loop().time()
        if self.closing:
            return
        # Counted before anything else: a frame that does not fit is not parsed, and the socket
        # closes (byoa.inflow: a few KiB before the hello, a refilling allowance after it).
        if text_data is not None:
            fits = self.inflow.take_text(text_data)
        else:
            fits = self.inflow.take(len(bytes_data or b""))
        if not fits:
            if self.pairing_id is not None:
                self.hub.allowances.closed(self.token_digest, self.inflow)
            await self._close(CloseCode.TOO_BIG)
            return
        if text_data is None:
            return
        try:
            frame = protocol.parse(text_data)
        except protocol.NotJSON:
            await self._close(CloseCode.NOT_JSON)
            return
        kind = protocol.kind_of(frame)
        if frame is None or kind is None:
            return  # JSON that is not a frame means nothing, before a hello and after
        if self.pairing_id is None:
            if kind == "hello":
                await self.on_hello(frame)
            return  # nothing else means anything before a valid hello
        handler = self.HANDLERS.get(kind)
        if handler is not None:
            await handler(self, frame)

    async def on_hello(self, frame: Frame) -> None:
        if self.hello_timer is not None:  # set in connect(), which comes first
            self.hello_timer.cancel()
        token = frame.get("pairing")
        if frame.get("session") is None and isinstance(token, str) and self._closed_for_flooding(token):
            # Closed for sending past its allowance moments ago: no database work, no frame read,
            # until that allowance holds a frame of the largest size again (byoa.inflow).
            await self._close(CloseCode.TOO_BIG)
            return
        opened = await pairings.open_from_hello(frame, self.channel_name)
        if opened is None:
            await self._send_frame(protocol.dump(protocol.bad_session()))
            await self._close(CloseCode.POLICY)
            return
        self.pairing_id, self.grant = opened.pairing_id, opened.grant
        self.token_digest = tokens.digest(opened.token)  # the digest only, as the database keeps it
        # The pairing's allowance, not a fresh one: coming back with the token refills nothing.
        self.inflow = self.hub.allowances.of(self.pairing_id, byoa_setting("MAX_FRAME_BYTES"))
        self.hub.connections.add(self.pairing_id, self)
        if opened.previous_channel:
            await self.hub.transport.notify(opened.previous_channel, {"type": events.REPLACED})
        await self._send_frame(protocol.dump(protocol.welcome(opened.token, opened.manifest)))
        logger.info("BYOA wallet connected for pairing %s", self.pairing_id)

    async def on_result(self, frame: Frame) -> None:
        pending = self.calls.pop(frame.get("id"))
        if pending is None:
            await self._unsolicited(frame)
            return
        output = frame.get("output")
        ok = frame.get("ok") is True and isinstance(output, dict)
        await pending.reply.send(events.result(ok, output if isinstance(output, dict) else None))
        self._receipt(pending, ok, frame.get("receipt"))

    async def on_chunk(self, frame: Frame) -> None:
        pending = self.calls.get(frame.get("id"))
        if pending is None:
            await self._unsolicited(frame)
            return
        delta = protocol.chunk_delta(frame)
        if pending.stream and delta:
            await pending.reply.send(events.chunk(delta))

    async def _unsolicited(self, frame: Frame) -> None:
        if self.calls.was_expired(frame.get("id")):
            return  # the caller gave up on it; a slow wallet is not a flood
        self.unsolicited += 1
        if self.unsolicited > byoa_setting("UNSOLICITED_RESULTS"):
            await self._close(CloseCode.POLICY)

    async def on_grant(self, frame: Frame) -> None:
        assert self.pairing_id is not None and self.grant is not None  # handlers run after a valid hello
        value = protocol.grant_of(frame)
        if value is None:
            return  # a grant frame without a grant changes nothing
        grant, unreadable = Grant.read(value, self.grant)
        warn_unreadable(unreadable, self.pairing_id, "the grant in force's")
        if grant != self.grant:  # a repeated grant costs no database write
            self.grant = grant
            await pairings.record_grant(self.pairing_id, grant)

    async def on_ping(self, frame: Frame) -> None:
        assert self.pairing_id is not None  # handlers run after a valid hello
        now = asyncio.get_running_loop().time()
        if now - self.last_touch > TOUCH_SECONDS:
            self.last_touch = now
            if not await pairings.touch(self.pairing_id):
                await self._bye()  # paused or revoked, and the admin's close never came

    async def silent(self) -> None:
        """Called when the wallet sent nothing for too long (half-open, likely): fail its calls, close."""
        if self.gone or self.pairing_id is None:  # only paired connections are watched (byoa.hub)
            return
        self.hub.connections.discard(self.pairing_id, self)
        logger.info("BYOA wallet silent for pairing %s; closing", self.pairing_id)
        await self._close(CloseCode.POLICY)
        await self._release()

    async def on_bye(self, frame: Frame) -> None:
        await self._close(CloseCode.NORMAL)

    #: The handler of each frame type that means something after the hello.
    HANDLERS: ClassVar[dict[str, Callable[[WalletConsumer, Frame], Awaitable[None]]]] = {
        "result": on_result,
        "chunk": on_chunk,
        "grant": on_grant,
        "ping": on_ping,
        "bye": on_bye,
    }

    async def start_call(
        self,
        reply: Reply,
        skill: str,
        params: dict[str, object],
        body: str,
        deadline: Deadline,
        *,
        caller: str = "",
    ) -> None:
        """Send a call to the wallet, or refuse it at once; its outcome goes to ``reply``, by ``deadline``.

        ``body`` is the call's input as JSON (``protocol.call_input``); the frame
        is built from it and from the ``skill`` and ``params`` checked here.
        ``caller``: the reply channel of a caller in another process, which its
        cancel names (``byoa_cancel``).
        """
        # Refused before the wallet sees it; the caller learns why (byoa.events.Failure), a page never does.
        if self.closing or self.grant is None:
            await reply.send(events.failed("closing"))
            return
        if not self.grant.allows(skill, params, clock.now()):
            await reply.send(events.failed("refused"))
            return
        if len(self.calls) >= self.grant.max_parallel:
            await reply.send(events.failed("too_many"))
            return
        model = params.get("model")
        model = model if isinstance(model, str) else ""
        pending = Pending(reply, skill, deadline, model, params.get("stream") is True, caller=caller)
        call_id = self.calls.add(pending)
        if hasattr(reply, "cancel"):  # a caller in this process (calls.LocalReply) may leave before the end
            reply.cancel = functools.partial(self._cancel, call_id)
        self.inflow.call_sent()
        pending.timer = asyncio.get_running_loop().call_later(deadline.remaining(), self._expire, call_id)
        sent = await self._send_frame(protocol.call_text(call_id, skill, params, body))
        if not sent and self.calls.pop(call_id) is not None:  # not drained by a disconnect meanwhile
            await reply.send(events.failed("left"))

    async def byoa_call(self, event: CallEvent) -> None:
        """Called when a caller in another process sends a call: as ``start_call``."""
        if not events.is_call(event):  # authenticated (byoa.signing), yet not of this version's shape
            logger.warning("BYOA dropped a call event without the fields of a call")
            return
        reply = self.hub.transport.reply_to(event["reply"])
        deadline = Deadline.arrived(event["timeout"])  # what the caller had left when it sent the call
        await self.start_call(
            reply, event["skill"], event["params"], event["input"], deadline, caller=event["reply"]
        )

    async def byoa_cancel(self, event: CancelEvent) -> None:
        """Called when a caller in another process left mid-call: as a caller here that leaves (``_cancel``).

        A cancel for a call already ended, or not started yet, changes nothing:
        that call ends with its result or at its deadline, as it would have.
        """
        call_id = self.calls.of_caller(event.get("reply"))  # authenticated, but its shape is checked too
        if call_id is not None:
            self._cancel(call_id)

    def _cancel(self, call_id: int) -> None:
        # The caller left (a page closed its stream, a request was cancelled): the call no longer
        # counts against the grant.
        pending = self.calls.cancel(call_id)
        if pending is not None:
            self._receipt(pending, False)

    def _expire(self, call_id: int) -> None:
        # The caller gave up, but the wallet may still be working on the call:
        # it keeps its slot for the deadline's hold (byoa.deadlines).
        assert self.grant is not None  # a call started only within the grant (start_call)
        pending = self.calls.expire(call_id, self.grant.max_call_seconds)
        if pending is not None:
            pending.reply.expired()
            self._receipt(pending, False)

    def _receipt(self, pending: Pending, ok: bool, receipt: object = None) -> None:
        """Queue the receipt of a call that reached the wallet (never its content)."""
        if byoa_setting("CALL_LOG") and self.pairing_id is not None:  # a call reached a paired wallet
            duration_ms = int((time.monotonic() - pending.started) * 1000)
            receipts = self.hub.receipts
            receipts.add(self.pairing_id, pending.skill, pending.model, ok, max(0, duration_ms), receipt)

    async def byoa_replaced(self, event: NoticeEvent) -> None:
        """Called when a newer connection of the same pairing said hello: say bye and close."""
        await self._bye()

    async def byoa_close(self, event: NoticeEvent) -> None:
        """Called when the pairing is paused or revoked in the admin: say bye and close."""
        await self._bye()

    async def _bye(self) -> None:
        if self.pairing_id is not None:
            self.hub.connections.discard(self.pairing_id, self)
        if not self.closing:
            await self._send_frame(protocol.dump(protocol.bye()))
            await self._close(CloseCode.NORMAL)

    async def disconnect(self, code: int) -> None:
        """Called when the socket is gone: fail its calls at once and mark the wallet away."""
        await self._release()

    async def _release(self) -> None:
        """Fail the calls in flight and mark the wallet away, once."""
        if self.gone:
            return
        self.gone = self.closing = True
        if self.hello_timer is not None:
            self.hello_timer.cancel()
        if self.pairing_id is not None:
            self.hub.connections.discard(self.pairing_id, self)
        for pending in self.calls.drain():
            await pending.reply.send(events.failed("left"))
            self._receipt(pending, False)
        if self.pairing_id is not None:
            await pairings.detach(self.pairing_id, self.channel_name)
            logger.info("BYOA wallet disconnected for pairing %s", self.pairing_id)
