"""
The calls in flight on one wallet connection: who waits for each result, and
which late results to drop quietly. A call past its deadline still counts
against the grant's ``maxParallelCalls`` until its late result comes or the
grant's ``maxCallSeconds`` pass (the wallet may still be working on it); a
call whose caller left frees its slot at once.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from byoa import clock
from byoa.delivery.events import Reply

__all__ = ["InFlight", "Pending"]


@dataclass(slots=True)
class Pending:
    """One call sent to the wallet and not answered yet."""

    reply: Reply  # where its events go
    skill: str
    timeout: float  # seconds
    model: str = ""
    stream: bool = False
    started: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None  # ends the call at its deadline


class InFlight:
    """The pending calls of one connection, by call id (the ``id`` of the wire's call frame)."""

    def __init__(self) -> None:
        self._pending: dict[int, Pending] = {}
        self._late: dict[int, datetime] = {}  # call id of a call given up -> when its slot frees
        self._given_up: deque[int] = deque(maxlen=256)  # their late results are no flood

    def __len__(self) -> int:
        """Return how many calls the wallet may be working on: pending ones and late ones still held."""
        if self._late:
            now = clock.now()
            self._late = {call_id: until for call_id, until in self._late.items() if until > now}
        return len(self._pending) + len(self._late)

    def add(self, call_id: int, pending: Pending) -> bool:
        """Record a call under its id; return False when the id is in use."""
        if call_id in self._pending or call_id in self._late:
            return False
        self._pending[call_id] = pending
        return True

    def get(self, call_id: object) -> Pending | None:
        """Return the pending call with this id, or None (ids are JSON integers: not 1.0, not true)."""
        return self._pending.get(call_id) if type(call_id) is int else None

    def pop(self, call_id: object) -> Pending | None:
        """Remove and return the pending call with this id, or None (a late result frees its slot)."""
        if type(call_id) is not int:
            return None
        self._late.pop(call_id, None)
        pending = self._pending.pop(call_id, None)
        if pending is not None and pending.timer is not None:
            pending.timer.cancel()
        return pending

    def give_up(self, call_id: int, hold_seconds: float | None) -> Pending | None:
        """Remove and return a call given up on: past its deadline, it holds its slot ``hold_seconds``;
        its caller gone (None), it frees it at once. Its late result is no flood either way."""
        pending = self.pop(call_id)
        if pending is not None:
            self._given_up.append(call_id)
            if hold_seconds:
                self._late[call_id] = clock.now() + timedelta(seconds=hold_seconds)
        return pending

    def was_given_up(self, call_id: object) -> bool:
        """Return True for the id of a call whose caller gave up (its late result is no flood)."""
        return type(call_id) is int and call_id in self._given_up

    def drain(self) -> list[Pending]:
        """Remove and return every pending call (the connection is gone)."""
        drained = [pending for call_id in list(self._pending) if (pending := self.pop(call_id))]
        self._late.clear()
        return drained
