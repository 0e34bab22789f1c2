"""
The pairing a browser session's requests reach, as this process last read it
(its hub's, ``byoa.hub``): the ``pairing_cache`` speed-up
(``visitor_ai.speedups``), behind ``byoa.pairings.aget_pairing``.

Finding it costs two queries a request: the session's BYOA visitor id (the
session's load) and the visitor's newest active pairing for the manifest,
each a trip to the request's database thread, on every action a page makes.
With the speed-up on, a pairing found is kept for its ``SECONDS``, by session
key and manifest, and a session that has none is never kept: a wallet that
pairs is found at once. Off, the hub's ``SessionPairings(0)`` keeps nothing.

What may be stale, and for how long:

- a pairing opened or resumed in this process for a visitor and manifest (a
  newer wallet, one back) forgets that visitor's entries at once
  (``forget_visitor``); one opened in another process (only when the page's requests and its wallet
  met different processes: ``byoa.routes``) is seen within ``SECONDS``;
- a pause, revoke or deletion made in this process forgets the pairing at
  once (``forget_pairing``); made in another, the pairing may still be
  answered here within ``SECONDS``, but a call to it does not reach the
  wallet: the pause or revoke closes its connection and the pairing's live
  address is read with its status (``byoa.pairings.live_channel``);
- a logout in this process forgets the session's entries at once
  (``forget_session``, on Django's ``user_logged_out``); a session ended in
  another process, or flushed here without a logout, keeps its entry until it
  expires: its old key, which only that browser had, reaches its pairing here
  for at most ``SECONDS`` more;
- a session key is never given twice, and a session's visitor id never
  changes while it keeps its key (``byoa.visitor_ids``; a new key after
  login is a new entry).

Entries are copies handed out as copies: a view that changes the pairing it
got changes no other request's. Time is ``byoa.clock``'s.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from byoa import clock

if TYPE_CHECKING:  # the hub, and so this module, is made while the app registry loads
    from byoa.models import Pairing

__all__ = ["SessionPairings"]

#: The most entries kept: past it, the expired ones go, and all of them if none had.
MOST = 10_000


@dataclass(frozen=True)
class _Entry:
    pairing: Pairing
    until: datetime


class SessionPairings:
    """(session key, manifest name) -> that session's pairing for the manifest, read recently."""

    def __init__(self, seconds: float, most: int = MOST) -> None:
        self.seconds = timedelta(seconds=seconds)
        self.most = most
        self._found: dict[tuple[str, str], _Entry] = {}

    def get(self, session_key: str | None, manifest_name: str) -> Pairing | None:
        """Return a copy of the session's pairing read within ``seconds``, or None (not read, expired, forgotten)."""
        if not session_key:
            return None
        entry = self._found.get((session_key, manifest_name))
        if entry is None:
            return None
        if clock.now() >= entry.until:
            self._found.pop((session_key, manifest_name), None)
            return None
        return copy.copy(entry.pairing)

    def put(self, session_key: str | None, manifest_name: str, pairing: Pairing) -> None:
        """Keep the session's pairing just read, a copy of it (for no time at all: not kept)."""
        if not session_key or not self.seconds:
            return
        now = clock.now()
        key = (session_key, manifest_name)
        if len(self._found) >= self.most and key not in self._found:
            # In place, not a new dict: a forget made meanwhile in a database thread is not lost.
            self._forget(lambda _key, entry: entry.until <= now)
            if len(self._found) >= self.most:
                self._found.clear()
        self._found[key] = _Entry(copy.copy(pairing), now + self.seconds)

    def forget_pairing(self, pairing_id: int) -> None:
        """Forget every session's entry for this pairing (paused, revoked, deleted)."""
        self._forget(lambda _key, entry: entry.pairing.pk == pairing_id)

    def forget_session(self, session_key: str | None) -> None:
        """Forget the session's entries, for every manifest (the session ended: a logout)."""
        if session_key:
            self._forget(lambda key, _entry: key[0] == session_key)

    def forget_visitor(self, visitor: str, manifest_name: str) -> None:
        """Forget the visitor's entries for the manifest (a newer pairing was opened for it)."""
        self._forget(
            lambda _key, entry: (
                entry.pairing.visitor == visitor and entry.pairing.manifest_name == manifest_name
            )
        )

    def _forget(self, matches: Callable[[tuple[str, str], _Entry], bool]) -> None:
        # A copy of the items: the caller may be a database thread while the loop reads.
        for key, entry in list(self._found.items()):
            if matches(key, entry):
                self._found.pop(key, None)

    def __len__(self) -> int:
        """Return how many entries are kept (expired ones included until looked at)."""
        return len(self._found)
