"""
The pairing each browser session's requests reach, kept by this process for
``BYOA["PAIRING_SECONDS"]`` once read (0: never kept), so that a page's actions
do not read the session and the pairing from the database every time. A
newer pairing, a pause, a revoke, a deletion or a logout made in this process
is seen at once; made in another, within those seconds (docs: "Delivery").
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from byoa import clock
from byoa.conf import byoa_setting

if TYPE_CHECKING:
    from byoa.models import Pairing

__all__ = ["forget_pairing", "forget_session", "forget_visitor", "get", "put"]

#: The most entries kept: past it, the expired ones go, and all of them if none had.
MOST = 10_000

# (session key, manifest name) -> (the pairing, when the entry expires)
_found: dict[tuple[str, str], tuple[Pairing, datetime]] = {}


def get(session_key: str | None, manifest_name: str) -> Pairing | None:
    """Return a copy of the session's pairing read within the seconds, or None."""
    entry = _found.get((session_key, manifest_name)) if session_key else None
    if entry is None:
        return None
    pairing, until = entry
    if clock.now() >= until:
        _found.pop((session_key, manifest_name), None)  # type: ignore[arg-type]  # a str here
        return None
    return copy.copy(pairing)  # a view that sets a field of its pairing sets no other request's


def put(session_key: str | None, manifest_name: str, pairing: Pairing) -> None:
    """Keep a copy of the session's pairing just read."""
    seconds = byoa_setting("PAIRING_SECONDS")
    if not session_key or not seconds:
        return
    now = clock.now()
    if len(_found) >= MOST:
        _forget(lambda key, pairing, until: until <= now)
        if len(_found) >= MOST:
            _found.clear()
    _found[(session_key, manifest_name)] = (copy.copy(pairing), now + timedelta(seconds=seconds))


def forget_pairing(pairing_id: int) -> None:
    """Forget every session's entry for this pairing (paused, revoked, deleted)."""
    _forget(lambda key, pairing, until: pairing.pk == pairing_id)


def forget_visitor(visitor: str, manifest_name: str) -> None:
    """Forget the visitor's entries for the manifest (a newer pairing was opened or resumed)."""
    _forget(lambda key, pairing, until: (pairing.visitor, pairing.manifest_name) == (visitor, manifest_name))


def forget_session(session_key: str | None) -> None:
    """Forget the session's entries, for every manifest (a logout)."""
    _forget(lambda key, pairing, until: key[0] == session_key)


def _forget(matches: Callable[[tuple[str, str], Pairing, datetime], bool]) -> None:
    # Over a copy of the items: a database thread may forget while the loop reads.
    for key, (pairing, until) in list(_found.items()):
        if matches(key, pairing, until):
            _found.pop(key, None)
