"""
The live addresses of pairings whose connections other processes hold, as
this process last read them from the database (its hub's, ``byoa.hub``).

A call to a wallet in another process needs the address of its connection
(``byoa.pairings.live_channel``). Read from the database, it cost a query per
call: about half of a cross-process call's CPU in ``benchmarks/byoa_calls.py
--two-processes``. So each address read is kept for ``BYOA["ADDRESS_SECONDS"]``
and reused (until issue 52 this was the ``address_cache`` speed-up; it is the
plain path now). Correctness does not rest on it being current:

- an address is never reused: it names its process's inbox, random per
  start, and a connection key never given twice (``byoa.transport``), so a
  stale one cannot reach another wallet; a call sent to it comes back at once
  as ``events.GONE`` (the connection left: it reconnected elsewhere, said bye,
  was closed by a pause or revoke, went silent) and the caller reads the
  address again from the database and resends, once (``byoa.calls``);
- a process found dead (not beating, suspected, swept) makes every address in
  its inbox away before any call is sent: ``live_channel`` checks the inbox's
  liveness on every use (``byoa.processes``, in memory while it beats);
- a pause or revoke made in this process forgets the pairing's address at
  once (``byoa.pairings.stop_pairings``), as does a deletion
  (``byoa.pairings.forget_deleted``). A pause or revoke made in another
  process closes the connection there, after which its address is gone as
  above; should that close be lost, or the pairing be deleted in another
  process, calls from here may still reach the connection until the entry
  expires (``ADDRESS_SECONDS``), as calls in its own process may until its status
  check (``byoa.consumers.TOUCH_SECONDS``).

Only addresses are kept, never "away": a wallet that connects is reachable at
once. Time is ``byoa.clock``'s, as for the pairing's own ``last_seen`` that
``live_channel`` compares with ``BYOA["LIVE_SECONDS"]`` (tests move it).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from byoa import clock

__all__ = ["LiveAddresses"]

#: The most entries kept: past it, the expired ones go, and all of them if none had.
MOST = 10_000


class LiveAddresses:
    """pairing id -> the address of its live connection in another process, read recently."""

    def __init__(self, seconds: float, most: int = MOST) -> None:
        self.seconds = timedelta(seconds=seconds)
        self.most = most
        self._read: dict[int, tuple[str, datetime]] = {}  # pairing id -> (address, when it expires)

    def get(self, pairing_id: int) -> str:
        """Return the pairing's address read within ``seconds``, or "" (not read, expired, forgotten)."""
        entry = self._read.get(pairing_id)
        if entry is None:
            return ""
        address, until = entry
        if clock.now() >= until:
            del self._read[pairing_id]
            return ""
        return address

    def put(self, pairing_id: int, address: str) -> None:
        """Keep the address just read for the pairing (for no time at all: not kept)."""
        if not self.seconds:
            return
        now = clock.now()
        if len(self._read) >= self.most and pairing_id not in self._read:
            self._read = {key: entry for key, entry in self._read.items() if entry[1] > now}
            if len(self._read) >= self.most:
                self._read.clear()
        self._read[pairing_id] = (address, now + self.seconds)

    def forget(self, pairing_id: int, address: str | None = None) -> None:
        """Forget the pairing's address (only if it is ``address``, when given: a newer one stays)."""
        entry = self._read.get(pairing_id)
        if entry is not None and (address is None or entry[0] == address):
            del self._read[pairing_id]

    def __len__(self) -> int:
        """Return how many addresses are kept (expired ones included until looked at)."""
        return len(self._read)
