"""
The live wallet connections of this process, by pairing.

A call to a wallet whose connection lives in the caller's process goes to that
connection directly (``byoa.calls``): no channel layer, no database query. A
connection in another process is known only from the database
(``byoa.pairings.live_channel``) and reached over the channel layer.

Entries come and go with their connections (``byoa.consumers``). Pausing or
revoking a pairing in the admin drops its entry here at once and asks the
connection to close; should that close be lost (the channel layer delivers at
most once), the connection closes itself within a minute, when its periodic
status check finds the pairing no longer active.
"""

__all__ = ["add", "count", "discard", "drop", "get"]

# pairing id -> the connection (a byoa.consumers.WalletConsumer) serving it here
_connections = {}


def add(pairing_id, connection):
    """Record the connection that now serves the pairing in this process."""
    _connections[pairing_id] = connection


def discard(pairing_id, connection):
    """Forget the connection, unless a newer one of the same pairing took its place."""
    if _connections.get(pairing_id) is connection:
        del _connections[pairing_id]


def drop(pairing_ids):
    """Forget the connections of these pairings (they were paused or revoked)."""
    for pairing_id in pairing_ids:
        _connections.pop(pairing_id, None)


def get(pairing_id):
    """Return the connection serving the pairing in this process, or None."""
    return _connections.get(pairing_id)


def count():
    """Return how many connections this process holds (for tests and benchmarks)."""
    return len(_connections)
