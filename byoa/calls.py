"""
Server -> wallet calls: ``call_wallet`` and ``stream_wallet``, the API a site's
code uses to reach a visitor's wallet. A call returns the wallet's output or
raises the ``WalletCallError`` that names why not (``byoa.exceptions``).
How a call travels, and what each outcome means: the docs' "Delivery" page.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from byoa.conf import byoa_setting
from byoa.delivery.events import Call, new_call_id, replies, send_event, wallet_connections
from byoa.exceptions import (
    CallRefused,
    NoPairing,
    TooManyCalls,
    WalletCallError,
    WalletDeclined,
    WalletLeft,
    WalletOffline,
    WalletProcessGone,
    WalletTimeout,
)
from byoa.models import Pairing
from byoa.pairing import pairings
from byoa.wire import protocol

__all__ = ["GRACE_SECONDS", "WalletStream", "call_wallet", "stream_wallet"]

logger = logging.getLogger(__name__)

# How long past its deadline a caller waits for the connection's own "timeout": heard by then
# means the connection's process lives; nothing means it or the channel layer is gone.
GRACE_SECONDS = 1.0


async def call_wallet(
    pairing: Pairing | int | None,
    skill: str,
    input: Mapping[str, object],
    params: Mapping[str, object] | None = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Call the pairing's wallet and return its output object; raise a ``WalletCallError`` saying why not.

    ``pairing`` None (``aget_pairing`` found none) raises ``NoPairing``; ``timeout``
    defaults to ``BYOA["CALL_SECONDS"]``. The output is the wallet's: untrusted.
    """
    stream = WalletStream(pairing, skill, input, params, timeout=timeout, stream=False)
    async for _delta in stream:
        pass
    assert stream.output is not None  # a call that ends without an output raises
    return stream.output


def stream_wallet(
    pairing: Pairing | int | None,
    skill: str,
    input: Mapping[str, object],
    params: Mapping[str, object] | None = None,
    *,
    timeout: float | None = None,
) -> WalletStream:
    """Return a ``WalletStream`` of a call made with ``params.stream``: iterate it for the text deltas.

    The call starts when the iteration does, and raises as ``call_wallet`` does.
    """
    return WalletStream(pairing, skill, input, params, timeout=timeout, stream=True)


class WalletStream:
    """One call: an async iterator of text deltas, then ``output`` (None until the call ends with one)."""

    def __init__(
        self,
        pairing: Pairing | int | None,
        skill: str,
        input: Mapping[str, object],
        params: Mapping[str, object] | None = None,
        *,
        timeout: float | None = None,
        stream: bool = True,
    ) -> None:
        self.pairing_id = pairing.pk if isinstance(pairing, Pairing) else pairing
        self.skill = skill
        self.input = input
        self.params = dict(params or {})
        if stream:
            self.params["stream"] = True
        self.timeout: float = byoa_setting("CALL_SECONDS") if timeout is None else timeout
        self.output: dict[str, Any] | None = None
        self._started = False
        self._sent_to: str | None = None  # where the call went ("" in this process), once it went

    def __aiter__(self) -> AsyncIterator[str]:
        if self._started:
            raise RuntimeError("A WalletStream can be iterated once.")
        self._started = True
        return self._events()

    async def _events(self) -> AsyncIterator[str]:
        if self.pairing_id is None:
            raise NoPairing(self.skill)
        loop = asyncio.get_running_loop()
        wait_until = loop.time() + self.timeout + GRACE_SECONDS
        call = Call(new_call_id())
        ended = False
        try:
            await self._send(call)
            channel = self._sent_to or ""
            await _give_back_pooled_connections()  # nothing of the database is needed while we wait
            while True:
                event = await call.receive(wait_until if channel else None)
                if event is None:
                    raise self._unheard(channel)
                if event["type"] == "byoa.chunk":
                    yield event["delta"]
                    continue
                ended = True
                if event.get("ok") and isinstance(event.get("output"), dict):
                    self.output = event["output"]
                    return
                raise self._failed(event.get("failure"))
        finally:
            replies.forget(call)
            if not ended and self._sent_to is not None:  # the caller left mid-call: free its slot now
                await self._cancel(call, self._sent_to)

    async def _send(self, call: Call) -> None:
        """Hand the call to the pairing's connection; ``_sent_to`` says where ("" in this process).

        Set before each await: a caller cancelled while its call goes out still frees its slot.
        """
        assert self.pairing_id is not None
        body = protocol.call_input(self.input)
        connection = wallet_connections.get(self.pairing_id)
        if connection is not None:
            self._sent_to = ""
            await connection.start_call(call, call.id, self.skill, self.params, body, self.timeout)
            return
        channel = await pairings.live_channel(self.pairing_id)
        if not channel:
            raise WalletOffline(self.pairing_id, self.skill)
        event = {"type": "byoa.call", "skill": self.skill, "params": self.params, "input": body}
        self._sent_to = channel
        if not await replies.send_call(channel, call, {**event, "timeout": self.timeout}):
            self._sent_to = None  # it did not go: nothing to cancel
            raise WalletProcessGone(self.pairing_id, self.skill)

    def _unheard(self, channel: str) -> WalletCallError:
        """Return why nothing came: the connection's timer always ends a call it holds, so when even
        its "timeout" did not come, its process died or the channel layer lost the call's events."""
        assert self.pairing_id is not None
        if not channel:
            return WalletTimeout(self.pairing_id, self.skill, self.timeout)
        return WalletProcessGone(self.pairing_id, self.skill)

    async def _cancel(self, call: Call, channel: str) -> None:
        if not channel:
            connection = wallet_connections.get(self.pairing_id)  # type: ignore[arg-type]
            if connection is not None:
                connection.cancel(call.id)
        else:  # shielded and sent once: a lost cancel leaves the call to end at its deadline
            await asyncio.shield(send_event(channel, {"type": "byoa.cancel", "id": call.id}))

    def _failed(self, failure: object) -> WalletCallError:
        pk, skill = self.pairing_id, self.skill
        assert pk is not None
        if failure == "declined":
            return WalletDeclined(pk, skill)
        if failure == "refused":
            return CallRefused(pk, skill)
        if failure == "too_many":
            return TooManyCalls(pk, skill)
        if failure == "closing":
            return WalletOffline(pk, skill)
        if failure == "left":
            return WalletLeft(pk, skill)
        if failure == "timeout":
            return WalletTimeout(pk, skill, self.timeout)
        return WalletCallError(pk, skill)  # a reason of a newer version


async def _give_back_pooled_connections() -> None:
    # Django keeps a request's database connection until the request ends; a call that waits on a
    # wallet would hold it from the pool all that time, so it goes back now (outside transactions).
    if any(database.get("OPTIONS", {}).get("pool") for database in settings.DATABASES.values()):
        await sync_to_async(_close_outside_transactions)()


def _close_outside_transactions() -> None:
    for database in connections.all(initialized_only=True):
        if not database.in_atomic_block:
            database.close()  # with a pool, close() returns the connection to it
