"""
The hub: everything one server process holds for BYOA, in one object.

- ``connections`` (``byoa.connections``): the live wallet connections, by
  pairing and by key;
- ``transport``: the inbox by which other processes reach those connections,
  its reader, and the replies of remote callers: on the channel layer
  (``byoa.transport``, which declares what every transport offers), or on
  Redis with redis-py when the site turned on the ``redis_transport``
  speed-up (``visitor_ai.speedups``);
- ``addresses`` (``byoa.addresses``): the live addresses of pairings held by
  other processes, kept ``BYOA["ADDRESS_SECONDS"]`` once read;
- ``session_pairings``: the pairing each browser session's requests reach,
  read from the database when asked, or kept a few seconds when the site
  turned on the ``pairing_cache`` speed-up;
- ``processes`` (``byoa.processes``): this process's liveness record, its beat
  and sweep, and what it knows of the other processes;
- the silence watch: a connection whose wallet sends nothing (not even its
  ping) for ``SILENT_PINGS`` times ``BYOA["PING_SECONDS"]`` is half-open most
  likely: it is closed and its calls fail at once;
- ``receipts`` (``byoa.receipts``): the call receipts queued for the database.

Who owns it: the ``byoa`` app. ``ByoaConfig.ready()`` makes the process's hub
and ``current_hub()`` returns it, so there is one place to reach it and no
module keeps state of its own; a test installs a fresh one
(``testwallet.plugin``'s ``byoa_hub`` fixture) and closes it afterwards.

When it runs: ``start()`` opens the inbox, registers the process and starts
the beat and the silence watch; ``aclose()`` stops them, writes the queued
receipts, and removes the process's record at once (its pairings are then
away for every process). Under uvicorn and hypercorn the ASGI lifespan does
both (``HubLifespan``, installed by ``visitor_ai.asgi``); daphne and
``runserver`` have no lifespan, so the hub starts on first use (a wallet
connecting, a call to another process) and leaves at the process's exit
(daphne returns from its main loop on SIGTERM and Python runs its exit
handlers; uvicorn ends its process with the signal itself once its shutdown is
complete, so no exit handler runs there: hence the lifespan).
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any, cast

from channels.db import database_sync_to_async
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured

from byoa.addresses import LiveAddresses
from byoa.conf import byoa_setting
from byoa.connections import Connection, Connections
from byoa.inflow import Allowances
from byoa.processes import ProcessRecords
from byoa.receipts import ReceiptWriter
from byoa.transport import ChannelLayerTransport, Transport, key_of
from visitor_ai import speedups
from visitor_ai.speedups.session_pairings import SessionPairings

if TYPE_CHECKING:
    from byoa.apps import ByoaConfig

__all__ = ["SILENT_PINGS", "Hub", "HubLifespan", "current_hub"]

logger = logging.getLogger(__name__)

# A wallet is silent after this many ping intervals without a frame.
SILENT_PINGS = 1.5

# ASGI, as loosely as the servers speak it (asgiref.typing's TypedDicts require keys the spec makes optional).
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def current_hub() -> Hub:
    """Return this process's hub (the ``byoa`` app's)."""
    try:
        # The registry's own table, as byoa.conf reads it: this runs on every call.
        return cast("ByoaConfig", apps.app_configs["byoa"]).hub
    except (KeyError, AttributeError):
        raise ImproperlyConfigured(
            "BYOA's hub exists once the byoa app is ready: add 'byoa' to INSTALLED_APPS."
        ) from None


class Hub:
    """One process's BYOA state: connections, inbox, beat and sweep, silence watch, receipts."""

    def __init__(self, transport: Transport | None = None) -> None:
        self.connections = Connections()
        self.transport = transport if transport is not None else self._transport(self.connections)
        self.addresses = LiveAddresses(byoa_setting("ADDRESS_SECONDS"))
        # With its speed-up off, it keeps nothing: every question is read from the database.
        pairing_cache = speedups.options("pairing_cache")
        self.session_pairings = SessionPairings(pairing_cache["SECONDS"] if pairing_cache else 0)
        self.processes = ProcessRecords()
        self.receipts = ReceiptWriter()
        self.allowances = Allowances()  # what each pairing's wallet may still send (byoa.inflow)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._starting: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        # The silent connections being closed: the loop keeps only a weak reference to a task.
        self._closing: set[asyncio.Future[None]] = set()
        self._at_exit = False

    @staticmethod
    def _transport(connections: Connections) -> Transport:
        """Return the channel layer's transport, or Redis's when the site chose that speed-up."""
        redis = speedups.options("redis_transport")
        if redis is not None:
            from visitor_ai.speedups.redis_transport import RedisTransport  # redis-py: the "scale" extra

            return RedisTransport(connections, redis["URL"])
        return ChannelLayerTransport(connections)

    # -- life cycle

    async def start(self) -> None:
        """Open the inbox, register this process and start the beat and the silence watch (once per loop)."""
        loop = asyncio.get_running_loop()
        died = self._starting is not None and self._starting.done() and not self.transport.is_open
        if self._starting is None or self._loop is not loop or died:
            self._stop_tasks()  # what ran on another loop, or a reader that died: start afresh
            self._loop = loop
            # A fresh context, not the caller's: the hub is often started by the first request
            # that needs it, and every task it starts would inherit that request's context, in
            # which asgiref's database_sync_to_async runs on the request's own executor, gone
            # when the request ends ("CurrentThreadExecutor already quit or is broken").
            self._starting = loop.create_task(self._start(), name="byoa-start", context=contextvars.Context())
        if not self._starting.done():
            # Other processes must find the record before any pairing names this inbox.
            # Shielded: a connection that goes away meanwhile must not cancel it for the others.
            await asyncio.shield(self._starting)

    async def _start(self) -> None:
        inbox = await self.transport.open()
        self._watch = asyncio.get_running_loop().create_task(self._watch_silence(), name="byoa-silence")
        await self.processes.register(inbox, self.connections.attached)
        if not self._at_exit:
            self._at_exit = True
            atexit.register(self._leave_at_exit)

    def cancel(self) -> None:
        """Stop at once, touching no database: queued receipts are dropped, the record left to others' sweep.

        For a test, whose database ends with it; a server closes its hub with ``aclose()``.
        """
        self._stop_tasks()
        self.processes.forget()
        self.receipts.discard()

    async def aclose(self) -> None:
        """Stop reading the inbox, beating and watching; write the queued receipts; remove the record."""
        tasks = self._stop_tasks()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.transport.aclose()
        await self.receipts.aclose()
        await database_sync_to_async(self.processes.leave)()

    def _stop_tasks(self) -> list[asyncio.Task[None]]:
        if self._at_exit:
            self._at_exit = False
            atexit.unregister(self._leave_at_exit)
        stopped = [task for task in (self._starting, self._watch, self.processes.stop()) if task is not None]
        self.transport.cancel()
        for task in stopped:
            task.cancel()
        self._starting = self._watch = None
        return stopped

    def _leave_at_exit(self) -> None:
        """Called at the process's exit (daphne, runserver): remove its record and detach its pairings now."""
        self.processes.leave()

    # -- connections

    async def open_address(self, connection: Connection) -> str:
        """Give a connection the address other processes reach it by, and return it (starting the hub)."""
        key = self.connections.new_key(connection)
        await self.start()
        return self.transport.address(key)

    def close_address(self, address: str) -> None:
        """Stop delivering events sent to this address (the connection is gone)."""
        self.connections.forget_key(key_of(address))

    async def _watch_silence(self) -> None:
        """Close the connections whose wallets stopped sending; look every quarter of the bound (<= 1 s)."""
        loop = asyncio.get_running_loop()
        while True:
            limit = byoa_setting("PING_SECONDS") * SILENT_PINGS
            # At most a second, so that a changed setting takes effect soon; a pass costs a comparison
            # per connection.
            await asyncio.sleep(min(limit / 4, 1.0))
            now = loop.time()
            for connection in self.connections:
                if now - connection.heard > limit:
                    closing = asyncio.ensure_future(connection.silent())
                    self._closing.add(closing)
                    closing.add_done_callback(self._closing.discard)


class HubLifespan:
    """The ASGI lifespan, wrapped: the hub starts at startup and closes at shutdown (uvicorn, hypercorn)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]] | None = None) -> None:
        self.app = app  # the lifespan application this one wraps (e.g. the MCP server's), or None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def receive_and_run_the_hub() -> Message:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await current_hub().start()
            elif message["type"] == "lifespan.shutdown":
                await current_hub().aclose()
            return message

        if self.app is not None:
            await self.app(scope, receive_and_run_the_hub, send)
            return
        while True:  # no other lifespan: answer it here
            message = await receive_and_run_the_hub()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
