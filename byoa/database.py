"""
Give the request's database connection back while a call waits for a wallet.

Django keeps the connection a request opened until the request ends. A view
that awaits a wallet (for up to ``BYOA["CALL_SECONDS"]``, or a whole stream)
would hold it all that time; with a connection pool (the PostgreSQL settings
use psycopg's) at most the pool's size of calls could then wait at once in a
process, and every other request would wait for a connection and fail. Giving
it back costs one trip to the request's database thread; the request's next
query simply takes a connection again. A connection inside a transaction is
kept. Without a pool there is nothing to give back to, and nothing is done.
"""

from asgiref.sync import sync_to_async
from django.db import connections

__all__ = ["give_back_pooled_connections"]


async def give_back_pooled_connections() -> None:
    """Return this request's idle pooled database connections to their pools."""
    if any(database.get("OPTIONS", {}).get("pool") for database in connections.settings.values()):
        # Thread-sensitive, like every ORM call of the request: the connections
        # to give back are those of the request's database thread.
        await sync_to_async(_close_outside_transactions)()


def _close_outside_transactions() -> None:
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()  # with a pool, close() returns the connection to it
