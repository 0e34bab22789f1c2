"""
The calls in flight on one wallet connection: wire ids, who waits for each
result, and which late results to drop quietly.

A call whose caller gave up is still in flight for the wallet, so it counts
against ``maxParallelCalls`` until its late result comes or its deadline's
hold ends (``Deadline.hold_until``).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from byoa import clock
from byoa.deadlines import Deadline
from byoa.events import ReplyEvent


class Reply(Protocol):
    """Where a connection sends a call's outcome (``calls.LocalReply``, a transport's caller in another process).

    ``replies.RemoteCaller`` on the channel layer, ``visitor_ai.speedups.redis_transport.RedisCaller`` on Redis.
    """

    async def send(self, event: ReplyEvent) -> None:
        """Hand one event (``byoa.events``) to the caller."""

    def expired(self) -> None:
        """Tell the caller its call timed out (a caller with a clock of its own needs nothing)."""


@dataclass(slots=True)
class Pending:
    """One call sent to the wallet and not answered yet."""

    reply: Reply  # where the outcome goes
    skill: str
    deadline: Deadline
    model: str = ""
    stream: bool = False
    started: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None  # the handle that expires it at its deadline
    caller: str = ""  # the reply channel of a caller in another process: what its cancel names


class InFlight:
    """Wire ids and pending calls of one connection."""

    def __init__(self, remember_expired: int = 256) -> None:
        self._pending: dict[int, Pending] = {}
        # Ids whose caller gave up: a slow wallet's late result is not a flood.
        # Made at the first expiry: most connections never have one, and an
        # empty deque is most of an idle connection's share here.
        self._expired: deque[int] | None = None
        self._remember_expired = remember_expired
        # Ids whose caller gave up -> when they stop counting as in flight.
        self._late: dict[int, datetime] = {}

    def __len__(self) -> int:
        """Return how many calls the wallet may be working on: pending ones and late ones still held."""
        if self._late:
            now = clock.now()
            self._late = {call_id: until for call_id, until in self._late.items() if until > now}
        return len(self._pending) + len(self._late)

    def add(self, pending: Pending) -> int:
        """Record a call and return its wire id: random, so that no one can tell the next one."""
        while True:
            call_id = secrets.randbits(53)  # a JSON number a JavaScript wallet keeps exact
            if call_id not in self._pending and call_id not in self._late:
                break
        self._pending[call_id] = pending
        return call_id

    def get(self, call_id: object) -> Pending | None:
        """Return the pending call with this wire id, or None (ids are JSON integers only)."""
        if type(call_id) is not int:  # not bool, float or str: 1.0 and true must not match 1
            return None
        return self._pending.get(call_id)

    def pop(self, call_id: object) -> Pending | None:
        """Remove and return the pending call with this wire id, or None (a late result frees its slot)."""
        if type(call_id) is not int:  # as in get()
            return None
        pending = self._pending.pop(call_id, None)
        if pending is not None:
            if pending.timer is not None:
                pending.timer.cancel()
        else:
            self._late.pop(call_id, None)
        return pending

    def expire(self, call_id: int, max_call_seconds: float | None) -> Pending | None:
        """Remove and return a call whose caller timed out, or None.

        It still counts as in flight until its result comes (then dropped
        quietly) or its deadline's hold ends (the grant's ``maxCallSeconds``).
        """
        pending = self._pending.pop(call_id, None)
        if pending is not None:
            if self._expired is None:
                self._expired = deque(maxlen=self._remember_expired)
            self._expired.append(call_id)
            self._late[call_id] = pending.deadline.hold_until(max_call_seconds)
        return pending

    def cancel(self, call_id: int) -> Pending | None:
        """Remove and return a call whose caller left (a closed stream, a request cancelled), or None.

        Its slot is free at once.

        The wallet may still answer it: that late result is dropped quietly.
        """
        pending = self._pending.pop(call_id, None)
        if pending is not None:
            if pending.timer is not None:
                pending.timer.cancel()
            if self._expired is None:
                self._expired = deque(maxlen=self._remember_expired)
            self._expired.append(call_id)
        return pending

    def of_caller(self, caller: object) -> int | None:
        """Return the wire id of the pending call whose caller in another process is at ``caller``, or None."""
        if not isinstance(caller, str) or not caller:  # a caller in this process has none: it cancels by id
            return None
        # A scan: a connection has at most the grant's maxParallelCalls pending, and cancels are rare.
        for call_id, pending in self._pending.items():
            if pending.caller == caller:
                return call_id
        return None

    def was_expired(self, call_id: object) -> bool:
        """Return True for the id of a call whose caller gave up (its late result is no flood)."""
        return type(call_id) is int and self._expired is not None and call_id in self._expired

    def drain(self) -> list[Pending]:
        """Remove and return every pending call (the connection is gone)."""
        pending = list(self._pending.values())
        for each in pending:
            if each.timer is not None:
                each.timer.cancel()
        self._pending.clear()
        self._late.clear()
        return pending
