"""
The live wallet connections of one process (its hub's registry): by pairing,
for calls made in this process, and by key, for events that other processes
address to one connection.

A call to a wallet whose connection lives in the caller's process goes to that
connection directly (``byoa.calls``): no channel layer, no database query.
Entries come and go with their connections (``byoa.consumers``). Pausing or
revoking a pairing in the admin drops its entry at once and asks the
connection to close; should that close be lost (the channel layer delivers at
most once), the connection closes itself within a minute, when its periodic
status check finds the pairing no longer active.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from byoa.deadlines import Deadline
    from byoa.inflight import Reply

__all__ = ["Connection", "Connections"]


class Connection(Protocol):
    """What the hub needs of a wallet connection (``byoa.consumers.WalletConsumer`` is the one)."""

    #: Its address (``byoa.transport``), as the database keeps it for other processes.
    channel_name: str
    #: Loop time of its wallet's last frame.
    heard: float

    async def start_call(
        self, reply: Reply, skill: str, params: dict[str, object], body: str, deadline: Deadline
    ) -> None:
        """Send a call to the wallet, or refuse it at once; its outcome goes to ``reply``."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Handle a channel-layer event addressed to it (``byoa.events``)."""

    async def silent(self) -> None:
        """Close it: its wallet sent nothing for too long."""


class Connections:
    """The connections (``byoa.consumers.WalletConsumer``) a process serves, by pairing and by key."""

    def __init__(self) -> None:
        self._by_pairing: dict[int, Connection] = {}  # pairing id -> the connection serving it here
        self._by_key: dict[str, Connection] = {}  # connection key -> connection, for addressed events
        self._keys = itertools.count(1)

    def add(self, pairing_id: int, connection: Connection) -> None:
        """Record the connection that now serves the pairing in this process."""
        self._by_pairing[pairing_id] = connection

    def discard(self, pairing_id: int, connection: Connection) -> None:
        """Forget the connection, unless a newer one of the same pairing took its place."""
        if self._by_pairing.get(pairing_id) is connection:
            del self._by_pairing[pairing_id]

    def drop(self, pairing_ids: Iterable[int]) -> None:
        """Forget the connections of these pairings (they were paused or revoked)."""
        for pairing_id in pairing_ids:
            self._by_pairing.pop(pairing_id, None)

    def get(self, pairing_id: int) -> Connection | None:
        """Return the connection serving the pairing in this process, or None."""
        return self._by_pairing.get(pairing_id)

    def count(self) -> int:
        """Return how many pairings have a live connection in this process (for tests and benchmarks)."""
        return len(self._by_pairing)

    def __iter__(self) -> Iterator[Connection]:
        """Iterate over a snapshot of the connections serving pairings."""
        return iter(list(self._by_pairing.values()))

    def new_key(self, connection: Connection) -> str:
        """Give a connection the key by which events addressed to it find it; return the key."""
        key = str(next(self._keys))
        self._by_key[key] = connection
        return key

    def by_key(self, key: object) -> Connection | None:
        """Return the connection with this key, or None (it is gone, or ``key`` is not one)."""
        return self._by_key.get(key) if isinstance(key, str) else None

    def forget_key(self, key: str) -> None:
        """Stop delivering events addressed to this key (the connection is gone)."""
        self._by_key.pop(key, None)

    def attached(self) -> list[tuple[int, str]]:
        """Return [(pairing id, address)] of the connections this process serves."""
        return [(pairing_id, connection.channel_name) for pairing_id, connection in self._by_pairing.items()]
