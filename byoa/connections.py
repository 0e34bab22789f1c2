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
from typing import Any

__all__ = ["Connections"]


class Connections:
    """The connections (``byoa.consumers.WalletConsumer``) a process serves, by pairing and by key."""

    def __init__(self) -> None:
        self._by_pairing: dict[int, Any] = {}  # pairing id -> the connection serving it here
        self._by_key: dict[str, Any] = {}  # connection key -> connection, for addressed events
        self._keys = itertools.count(1)

    def add(self, pairing_id: int, connection: Any) -> None:
        """Record the connection that now serves the pairing in this process."""
        self._by_pairing[pairing_id] = connection

    def discard(self, pairing_id: int, connection: Any) -> None:
        """Forget the connection, unless a newer one of the same pairing took its place."""
        if self._by_pairing.get(pairing_id) is connection:
            del self._by_pairing[pairing_id]

    def drop(self, pairing_ids: Iterable[int]) -> None:
        """Forget the connections of these pairings (they were paused or revoked)."""
        for pairing_id in pairing_ids:
            self._by_pairing.pop(pairing_id, None)

    def get(self, pairing_id: int) -> Any | None:
        """Return the connection serving the pairing in this process, or None."""
        return self._by_pairing.get(pairing_id)

    def count(self) -> int:
        """Return how many pairings have a live connection in this process (for tests and benchmarks)."""
        return len(self._by_pairing)

    def __iter__(self) -> Iterator[Any]:
        """Iterate over a snapshot of the connections serving pairings."""
        return iter(list(self._by_pairing.values()))

    def new_key(self, connection: Any) -> str:
        """Give a connection the key by which events addressed to it find it; return the key."""
        key = str(next(self._keys))
        self._by_key[key] = connection
        return key

    def by_key(self, key: str | None) -> Any | None:
        """Return the connection with this key, or None (it is gone)."""
        return self._by_key.get(key) if key is not None else None

    def forget_key(self, key: str) -> None:
        """Stop delivering events addressed to this key (the connection is gone)."""
        self._by_key.pop(key, None)

    def attached(self) -> list[tuple[int, str]]:
        """Return [(pairing id, address)] of the connections this process serves."""
        return [(pairing_id, connection.channel_name) for pairing_id, connection in self._by_pairing.items()]
