"""
The wallet's WebSocket at ``/byoa/ws``: a Channels consumer per connection.

Frames from the wallet arrive as ``websocket.receive``; calls from this
process arrive through ``start_call``, and from other processes as
``byoa.call`` events on the consumer's channel, which Channels dispatches to
``byoa_call``. The wallet authenticates by its hello alone: no cookie is read.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import time
from collections.abc import Coroutine
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import ImproperlyConfigured

from byoa import clock
from byoa.conf import byoa_setting
from byoa.delivery import events, receipts
from byoa.delivery.allowance import Allowance, allowances
from byoa.delivery.events import RemoteReply, Reply, announce_move, send_event
from byoa.delivery.inflight import InFlight, Pending
from byoa.delivery.signing import verified_event
from byoa.pairing import invitations, pairings, tokens
from byoa.pairing.grants import Grant, warn_unreadable
from byoa.wire import protocol
from byoa.wire.protocol import CloseCode, Frame

__all__ = ["SILENT_PINGS", "TOUCH_SECONDS", "WalletConsumer"]

logger = logging.getLogger(__name__)

# How often a ping marks the pairing seen and re-reads its status: "last seen" to the minute is
# enough, and so is closing within a minute a connection whose pause or revoke event was lost.
TOUCH_SECONDS = 60
# A wallet that sends nothing for this many ping intervals is taken for gone (half-open, likely).
SILENT_PINGS = 1.5


def failed(failure: str) -> dict[str, Any]:
    """Return the event of a call that gave no output; ``byoa.calls`` raises one exception per failure."""
    return {"type": "byoa.result", "ok": False, "output": None, "failure": failure}


class WalletConsumer(AsyncWebsocketConsumer):
    """The server's end of one wallet connection."""

    pairing_id: int | None = None  # set by a valid hello
    grant: Grant | None = None  # the grant in force, from the hello on
    closing = False
    gone = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls = InFlight()
        self.allowance = Allowance()  # what the wallet may still send, counted before a frame is parsed
        self.token_digest = ""
        self.unsolicited = 0
        self.last_touch = 0.0
        self.heard = time.monotonic()
        self.hello_timer: asyncio.TimerHandle | None = None
        self.silence_timer: asyncio.TimerHandle | None = None
        self.tasks: set[asyncio.Task[None]] = set()  # started by timers: the loop keeps only weak references
        try:
            await super().__call__(scope, receive, send)
        finally:
            # A server that stops cancels this task without a disconnect event (daphne at SIGTERM).
            await asyncio.shield(self._release())

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' dispatch runs aclose_old_connections() before every handler: a thread hop per
        # frame, a large share of a call's CPU (docs: performance). Every database access here goes through
        # database_sync_to_async, which closes old connections itself.
        if message["type"].startswith("byoa."):  # from another process: only a signed event counts
            verified = verified_event(message, self.channel_name)
            if verified is None:
                logger.warning("BYOA dropped a %s event without a valid MAC", message["type"])
                return
            message = verified
        try:
            handler = getattr(self, get_handler_name(message), None)
        except (KeyError, ValueError):  # no type, or one Channels refuses ("_private")
            handler = None
        if handler is None:  # an event of another app, or a newer byoa's: nothing to do here
            logger.warning("BYOA dropped an event with no handler here (%s)", str(message.get("type"))[:40])
            return
        await handler(message)

    async def connect(self) -> None:
        """Refuse pages of other sites at the handshake (HTTP 403); else accept and wait for a hello."""
        if self.channel_layer is None:  # its channel name is how calls and notices reach it
            raise ImproperlyConfigured("BYOA's wallet route needs a channel layer: set CHANNEL_LAYERS.")
        if not self._origin_allowed():
            await self.close()  # before accept(): the server answers the handshake with 403
            return
        await self.accept()
        loop = asyncio.get_running_loop()
        self.hello_timer = loop.call_later(byoa_setting("HELLO_SECONDS"), self._no_hello)

    def _origin_allowed(self) -> bool:
        """Return True when the handshake has no Origin (a desktop wallet), or only the endpoint's own."""
        headers = self.scope.get("headers", ())
        origins = [value.decode("latin-1") for name, value in headers if name == b"origin"]
        if not origins:
            return True
        host = next((value.decode("latin-1") for name, value in headers if name == b"host"), "")
        own = invitations.own_origin(host, self.scope.get("scheme") == "wss")
        return bool(own) and all(invitations.origin_of(origin) == own for origin in origins)

    def _in_background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _no_hello(self) -> None:
        self._in_background(self._close(CloseCode.POLICY))

    def _watch_silence(self) -> None:
        limit = byoa_setting("PING_SECONDS") * SILENT_PINGS
        silent_for = time.monotonic() - self.heard
        if silent_for > limit:
            self._in_background(self._silent())
        else:  # one timer a connection, moved once a limit rather than at every frame
            self.silence_timer = asyncio.get_running_loop().call_later(
                limit - silent_for, self._watch_silence
            )

    async def _silent(self) -> None:
        logger.info("BYOA wallet silent for pairing %s; closing", self.pairing_id)
        await self._close(CloseCode.POLICY)
        await self._release()

    async def _send_frame(self, text: str) -> bool:
        """Send a text frame; return False when the socket is already gone."""
        return await self._safely(self.send(text_data=text))

    async def _close(self, code: CloseCode) -> None:
        if not self.closing:
            self.closing = True
            await self._safely(self.close(int(code)))  # int: autobahn refuses an IntEnum

    async def _safely(self, sending: Coroutine[Any, Any, None]) -> bool:
        if self.gone:
            sending.close()
            return False
        try:
            await sending
        # The wallet's close may cross our send; each server raises its own error (uvicorn's
        # ClientDisconnected, hypercorn's UnexpectedMessageError, a RuntimeError): the socket is gone.
        except Exception as exc:
            self.closing = True
            logger.debug("BYOA socket gone while sending (%s)", type(exc).__name__)
            return False
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Count each frame against the allowance first; binary is ignored, non-JSON closes."""
        self.heard = time.monotonic()
        if self.closing:
            return
        fits = (
            self.allowance.take_text(text_data)
            if text_data is not None
            else self.allowance.take(len(bytes_data or b""))
        )
        if not fits:
            if self.pairing_id is not None:
                allowances.closed(self.token_digest, self.allowance)
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
            return  # JSON that is not a frame means nothing
        if self.pairing_id is None:
            if kind == "hello":
                await self.on_hello(frame)
            return  # nothing else means anything before a valid hello
        handler = getattr(self, f"on_{kind}", None) if kind in FRAME_TYPES else None
        if handler is not None:
            await handler(frame)

    async def on_hello(self, frame: Frame) -> None:
        if self.hello_timer is not None:
            self.hello_timer.cancel()
        token = frame.get("pairing")
        if (
            frame.get("session") is None
            and isinstance(token, str)
            and 1 <= len(token) <= 256
            and allowances.refuses(tokens.digest(token))
        ):
            await self._close(CloseCode.TOO_BIG)  # closed for flooding moments ago: no database work
            return
        # Before the write: a server stopping mid-hello still marks the pairing away at exit.
        attached.add(self.channel_name)
        opened = await pairings.open_from_hello(frame, self.channel_name)
        if opened is None:
            attached.discard(self.channel_name)
            await self._send_frame(protocol.dump(protocol.bad_session()))
            await self._close(CloseCode.POLICY)
            return
        self.pairing_id, self.grant = opened.pairing_id, opened.grant
        self.token_digest = tokens.digest(opened.token)
        # The pairing's allowance, not a fresh one: coming back with the token refills nothing.
        self.allowance = allowances.of(self.token_digest, byoa_setting("MAX_FRAME_BYTES"))
        events.wallet_connections[self.pairing_id] = self
        if opened.previous_channel:
            await send_event(opened.previous_channel, {"type": "byoa.replaced"})
        await announce_move(self.pairing_id)
        await self._send_frame(protocol.dump(protocol.welcome(opened.token, opened.manifest)))
        self._watch_silence()
        logger.info("BYOA wallet connected for pairing %s", self.pairing_id)

    async def on_result(self, frame: Frame) -> None:
        pending = self.calls.pop(frame.get("id"))
        if pending is None:
            await self._unsolicited(frame)
            return
        output = frame.get("output")
        ok = frame.get("ok") is True and isinstance(output, dict)
        await pending.reply.send(
            {"type": "byoa.result", "ok": True, "output": output} if ok else failed("declined")
        )
        self._receipt(pending, ok, frame.get("receipt"))

    async def on_chunk(self, frame: Frame) -> None:
        pending = self.calls.get(frame.get("id"))
        if pending is None:
            await self._unsolicited(frame)
            return
        delta = protocol.chunk_delta(frame)
        if pending.stream and delta:
            await pending.reply.send({"type": "byoa.chunk", "delta": delta})

    async def _unsolicited(self, frame: Frame) -> None:
        if self.calls.was_given_up(frame.get("id")):
            return  # its caller gave up on it: a slow wallet is not a flood
        self.unsolicited += 1
        if self.unsolicited > byoa_setting("UNSOLICITED_RESULTS"):
            await self._close(CloseCode.POLICY)

    async def on_grant(self, frame: Frame) -> None:
        assert self.pairing_id is not None and self.grant is not None  # after a valid hello
        value = protocol.grant_of(frame)
        if value is None:
            return
        grant, unreadable = Grant.read(value, self.grant)
        warn_unreadable(unreadable, self.pairing_id, "the grant in force's")
        if grant != self.grant:  # a repeated grant costs no database write
            self.grant = grant
            await pairings.record_grant(self.pairing_id, grant)

    async def on_ping(self, frame: Frame) -> None:
        assert self.pairing_id is not None
        now = time.monotonic()
        if now - self.last_touch > TOUCH_SECONDS:
            self.last_touch = now
            if not await pairings.touch(self.pairing_id, self.channel_name):
                await self._bye()  # paused, revoked or replaced, and its event never came

    async def on_bye(self, frame: Frame) -> None:
        await self._close(CloseCode.NORMAL)

    async def start_call(
        self, reply: Reply, call_id: int, skill: str, params: dict[str, object], body: str, timeout: float
    ) -> None:
        """Send a call to the wallet, or refuse it at once; its events go to ``reply``.

        ``body`` is the input as JSON (``protocol.call_input``); the timer ends the call after ``timeout``.
        """
        if self.closing or self.grant is None:
            await reply.send(failed("closing"))
            return
        if not self.grant.allows(skill, params, clock.now()):
            await reply.send(failed("refused"))
            return
        if len(self.calls) >= self.grant.max_parallel:
            await reply.send(failed("too_many"))
            return
        model = params.get("model")
        pending = Pending(
            reply, skill, timeout, model if isinstance(model, str) else "", params.get("stream") is True
        )
        if not self.calls.add(call_id, pending):
            # An id in use: a replayed event (53 random bits do not collide).
            await reply.send(failed("refused"))
            return
        self.allowance.call_sent()
        pending.timer = asyncio.get_running_loop().call_later(timeout, self._expire, call_id)
        sent = await self._send_frame(protocol.call_text(call_id, skill, params, body))
        if not sent and self.calls.pop(call_id) is not None:  # not drained by a disconnect meanwhile
            await reply.send(failed("left"))

    async def byoa_call(self, event: dict[str, Any]) -> None:
        """A call from another process (``byoa.calls``): as ``start_call``, its events to the caller's channel."""
        call_id, reply, skill, params, body, timeout = (
            event.get(key) for key in ("id", "reply", "skill", "params", "input", "timeout")
        )
        if not (
            type(call_id) is int
            and isinstance(reply, str)
            and isinstance(skill, str)
            and isinstance(params, dict)
            and isinstance(body, str)
            and type(timeout) in (int, float)
        ):
            logger.warning("BYOA dropped a call event without the fields of a call")
            return
        await self.start_call(RemoteReply(reply, call_id), call_id, skill, params, body, timeout)  # type: ignore[arg-type]

    async def byoa_cancel(self, event: dict[str, Any]) -> None:
        """A caller in another process left mid-call: free the call's slot, as ``cancel`` does."""
        self.cancel(event.get("id"))

    def cancel(self, call_id: object) -> None:
        """Forget a call whose caller left: its slot is free at once, its late result dropped quietly."""
        if type(call_id) is int and (pending := self.calls.give_up(call_id, None)) is not None:
            self._receipt(pending, False)

    def _expire(self, call_id: int) -> None:
        # The call's deadline: the caller hears it now; the wallet may still be working on the call,
        # so its slot stays taken until its late result or the grant's maxCallSeconds.
        pending = self.calls.get(call_id)
        if pending is not None and self.grant is not None:
            self.calls.give_up(call_id, self.grant.max_call_seconds or pending.timeout)
            self._in_background(pending.reply.send(failed("timeout")))
            self._receipt(pending, False)

    def _receipt(self, pending: Pending, ok: bool, receipt: object = None) -> None:
        """Queue the receipt of a call that reached the wallet (never its content)."""
        if byoa_setting("CALL_LOG") and self.pairing_id is not None:
            duration_ms = max(0, int((time.monotonic() - pending.started) * 1000))
            receipts.add(self.pairing_id, pending.skill, pending.model, ok, duration_ms, receipt)

    async def byoa_replaced(self, event: dict[str, Any]) -> None:
        """A newer connection of the same pairing said hello: say bye and close."""
        await self._bye()

    async def byoa_close(self, event: dict[str, Any]) -> None:
        """The pairing was paused or revoked in the admin: say bye and close."""
        await self._bye()

    async def _bye(self) -> None:
        self._forget()
        if not self.closing:
            await self._send_frame(protocol.dump(protocol.bye()))
            await self._close(CloseCode.NORMAL)

    async def disconnect(self, code: int) -> None:
        """The socket is gone: fail its calls at once and mark the wallet away."""
        await self._release()

    def _forget(self) -> None:
        if self.pairing_id is not None and events.wallet_connections.get(self.pairing_id) is self:
            del events.wallet_connections[self.pairing_id]

    def _cancel_timers(self) -> None:
        for timer in (self.hello_timer, self.silence_timer):
            if timer is not None:
                timer.cancel()

    async def _release(self) -> None:
        """Fail the calls in flight and mark the wallet away, once."""
        if self.gone:
            return
        self.gone = self.closing = True
        self._cancel_timers()
        self._forget()
        for pending in self.calls.drain():
            await pending.reply.send(failed("left"))
            self._receipt(pending, False)
        if self.pairing_id is not None:
            await pairings.detach(self.pairing_id, self.channel_name)
            attached.discard(self.channel_name)
            await announce_move(self.pairing_id)
            logger.info("BYOA wallet disconnected for pairing %s", self.pairing_id)


#: The channel names of this process's connections whose pairing is attached to them.
attached: set[str] = set()
atexit.register(lambda: pairings.detach_at_exit(attached))

#: The frame types that mean something after the hello, each handled by ``on_<type>``.
FRAME_TYPES = frozenset({"result", "chunk", "grant", "ping", "bye"})
