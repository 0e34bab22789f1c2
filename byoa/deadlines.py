"""
A call's time limits, decided in one place and carried with the call.

A ``Deadline`` is made once, when ``call_wallet`` / ``stream_wallet`` starts
a call, and travels with it: the caller waits on it (``byoa.calls``), the
connection's timer fires at it (``byoa.consumers``), the slot of a call whose
caller gave up is held by it (``byoa.inflight``), and a caller in another
process stops waiting for an acknowledgement at it (``byoa.transport``).

- The call's timeout: ``timeout=`` of the call, else ``BYOA["CALL_SECONDS"]``.
  The caller gets ``WalletTimeout`` when it passes.
- The acceptance window, for a call sent to a connection in another process:
  that process acknowledges the call at once, and a caller that hears nothing
  within ``BYOA["ACCEPT_SECONDS"]`` gives up and takes the process for dead.
- The hold after the caller gave up: the wallet may still be working on the
  call, so it keeps its slot until its late result comes, or for as long as the
  wallet may work on a call (the grant's ``maxCallSeconds``; the call's timeout
  again when the grant sets none).

Waits are measured on the event loop's monotonic clock. A deadline crosses to
another process as the seconds it has left (``remaining``), since two
processes' loops share no clock; the hold is measured on ``byoa.clock`` (wall
time), which tests move without sleeping.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta

from byoa import clock
from byoa.conf import byoa_setting

__all__ = ["Deadline"]


@dataclass(frozen=True, slots=True)
class Deadline:
    """When one call ends: its timeout, the acceptance window, the hold after a late result."""

    #: The call's timeout, in seconds (as the caller asked, or what was left of it on arrival).
    timeout: float
    #: Loop time at which the caller stops waiting (``WalletTimeout``).
    at: float
    #: Loop time by which another process must acknowledge the call (None: no acknowledgement awaited).
    accept_by: float | None = None

    @staticmethod
    def seconds(timeout: float | None) -> float:
        """Return a call's timeout: ``timeout``, or ``BYOA["CALL_SECONDS"]`` when it is None."""
        return byoa_setting("CALL_SECONDS") if timeout is None else timeout

    @classmethod
    def start(cls, timeout: float | None = None) -> Deadline:
        """Return the deadline of a call starting now (``timeout`` None: ``BYOA["CALL_SECONDS"]``)."""
        seconds = cls.seconds(timeout)
        return cls(seconds, asyncio.get_running_loop().time() + seconds)

    @classmethod
    def arrived(cls, remaining: float) -> Deadline:
        """Return the deadline of a call that came from another process with ``remaining`` seconds left."""
        return cls(remaining, asyncio.get_running_loop().time() + remaining)

    def awaiting_acceptance(self) -> Deadline:
        """Return this deadline with the acceptance window opened now (the call goes to another process)."""
        accept_by = asyncio.get_running_loop().time() + byoa_setting("ACCEPT_SECONDS")
        return Deadline(self.timeout, self.at, accept_by)

    def remaining(self) -> float:
        """Return the seconds left until the caller gives up (0 once it has)."""
        return max(0.0, self.at - asyncio.get_running_loop().time())

    def wait_until(self, acknowledged: bool) -> float:
        """Return the loop time at which a caller stops waiting, given whether its call was acknowledged."""
        if acknowledged or self.accept_by is None:
            return self.at
        return min(self.at, self.accept_by)

    def ends_unacknowledged(self, acknowledged: bool) -> bool:
        """Return True when, unacknowledged, the acceptance window and not the timeout ends the wait."""
        return not acknowledged and self.accept_by is not None and self.accept_by < self.at

    def hold_until(self, max_call_seconds: float | None) -> datetime:
        """Return when a call whose caller gave up frees its slot (``maxCallSeconds``, else the timeout)."""
        return clock.now() + timedelta(seconds=max_call_seconds or self.timeout)
