"""
The calls in flight on one wallet connection: wire ids, who waits for each
result, and which late results to drop quietly.

A call whose caller gave up is still in flight for the wallet, so it counts
against ``maxParallelCalls`` until its late result comes or a hold time ends.
"""

import time
from collections import deque
from dataclasses import dataclass, field
from datetime import timedelta

from byoa import clock


@dataclass(slots=True)
class Pending:
    """One call sent to the wallet and not answered yet."""

    reply: object  # where the outcome goes: a byoa.replies.LocalReply or ChannelReply
    skill: str
    model: str = ""
    stream: bool = False
    started: float = field(default_factory=time.monotonic)
    timer: object = None  # the asyncio handle that expires it


class InFlight:
    """Wire ids and pending calls of one connection."""

    def __init__(self, remember_expired=256):
        self._next_id = 0
        self._pending = {}
        # Ids whose caller gave up: a slow wallet's late result is not a flood.
        # Made at the first expiry: most connections never have one, and an
        # empty deque is most of an idle connection's share here.
        self._expired = None
        self._remember_expired = remember_expired
        # Ids whose caller gave up -> when they stop counting as in flight.
        self._late = {}

    def __len__(self):
        """Return how many calls the wallet may be working on: pending ones and late ones still held."""
        if self._late:
            now = clock.now()
            self._late = {call_id: until for call_id, until in self._late.items() if until > now}
        return len(self._pending) + len(self._late)

    def add(self, pending):
        """Record a call and return its wire id."""
        self._next_id += 1
        self._pending[self._next_id] = pending
        return self._next_id

    def get(self, call_id):
        """Return the pending call with this wire id, or None (ids are JSON integers only)."""
        if type(call_id) is not int:  # not bool, float or str: 1.0 and true must not match 1
            return None
        return self._pending.get(call_id)

    def pop(self, call_id):
        """Remove and return the pending call with this wire id, or None (a late result frees its slot)."""
        pending = self.get(call_id)
        if pending is not None:
            del self._pending[call_id]
            if pending.timer is not None:
                pending.timer.cancel()
        elif type(call_id) is int:
            self._late.pop(call_id, None)
        return pending

    def expire(self, call_id, hold_seconds):
        """Remove and return a call whose caller timed out, or None.

        It still counts as in flight for ``hold_seconds`` or until its result
        comes; that result is then dropped quietly.
        """
        pending = self._pending.pop(call_id, None)
        if pending is not None:
            if self._expired is None:
                self._expired = deque(maxlen=self._remember_expired)
            self._expired.append(call_id)
            self._late[call_id] = clock.now() + timedelta(seconds=hold_seconds)
        return pending

    def was_expired(self, call_id):
        return type(call_id) is int and self._expired is not None and call_id in self._expired

    def drain(self):
        """Remove and return every pending call (the connection is gone)."""
        pending = list(self._pending.values())
        for each in pending:
            if each.timer is not None:
                each.timer.cancel()
        self._pending.clear()
        self._late.clear()
        return pending
