"""
The server processes that hold wallet connections, as every process can see
them in the database: which of them are still alive.

A process registers its inbox (``byoa.live``) when it opens it, and renews the
record every ``BYOA["BEAT_SECONDS"]``. A connection's address names its
process's inbox, so another process treats the connection as live only while
that process's record is fresh (``is_fresh``): a process that died (SIGKILL,
a crash, a lost machine) stops renewing, and within ``BYOA["STALE_SECONDS"]``
its wallets count as away and calls to them fail at once. Every beat also
sweeps: it deletes the records of stale processes and detaches their pairings,
so the admin and ``/byoa/wait`` stop showing them as connected. A process that
stops normally removes its own record and detaches its pairings at once. Daphne returns from its main loop on SIGTERM,
and Python then runs its exit handlers, where this happens; uvicorn ends its
process with the signal itself once its shutdown is complete, so no exit
handler runs there: its lifespan's shutdown does it (``LeaveAtShutdown``,
installed by ``visitor_ai.asgi``).

The seconds between a SIGKILL and the record going stale are covered by the
caller: a call sent over the channel layer is acknowledged by the receiving
process's inbox at once, and a caller that hears nothing within
``BYOA["ACCEPT_SECONDS"]`` gives up (``byoa.calls``) and takes the process
for dead (``suspect``): later calls to any of its wallets fail at once, until
its record shows a beat newer than the one seen when it was suspected.

The beat survives database errors: it logs the error's class and tries again
at the next beat. Should this process's own record have been swept meanwhile
(its database was away longer than ``STALE_SECONDS``), the beat writes it
again and re-attaches the pairings its connections still serve.
"""

import asyncio
import atexit
import logging
import os
import socket
from datetime import timedelta

from channels.db import database_sync_to_async
from django.db import close_old_connections, transaction

from byoa import clock
from byoa.conf import byoa_setting
from byoa.models import Pairing, ServerProcess

__all__ = ["LeaveAtShutdown", "forget", "is_fresh", "register", "suspect", "sweep"]

logger = logging.getLogger(__name__)

# The inboxes of processes found fresh at this process's last beat: most calls
# to a remote connection then cost no query beyond the pairing's own.
_fresh = set()
# inbox -> the beat_at of its record when a call to it went unacknowledged (None
# until read): it counts as dead until its record shows a later beat. Compared
# with the record's own value, so that the machines' clocks need not agree.
_suspected = {}
# (inbox, beat task) of this process: one inbox per event loop, and one loop serves
_own = None
# Whether this process removes its record when it exits (not after forget()).
_remove_at_exit = False
# Whether _leave is registered to run at exit (once per process).
_exit_handler = False


def _cutoff():
    return clock.now() - timedelta(seconds=byoa_setting("STALE_SECONDS"))


def _detach_process(inbox):
    """Mark every pairing served through this inbox away; return how many."""
    # An address is "<inbox>#<key>" (byoa.live), and "#" never occurs in an inbox.
    return Pairing.objects.filter(channel_name__startswith=f"{inbox}#").update(channel_name="")


def _beat(inbox, attached):
    """Renew this process's record (writing it again if it was swept); return the fresh inboxes.

    ``attached`` is [(pairing id, address)] of the connections this process
    serves, written back should the record have been swept.
    """
    now = clock.now()
    with transaction.atomic():
        renewed = ServerProcess.objects.filter(inbox=inbox).update(beat_at=now)
        if not renewed:
            ServerProcess.objects.create(
                inbox=inbox, host=socket.gethostname()[:255], pid=os.getpid(), started_at=now, beat_at=now
            )
            for pairing_id, address in attached:
                Pairing.objects.filter(pk=pairing_id, channel_name="").update(channel_name=address)
    sweep()
    return set(ServerProcess.objects.filter(beat_at__gte=_cutoff()).values_list("inbox", flat=True))


def sweep():
    """Forget the processes that stopped beating and detach their pairings; return how many processes."""
    stale = list(ServerProcess.objects.filter(beat_at__lt=_cutoff()).values_list("inbox", flat=True))
    for inbox in stale:
        with transaction.atomic():
            _detach_process(inbox)
            ServerProcess.objects.filter(inbox=inbox).delete()
    if stale:
        logger.info("BYOA swept %d stopped server process(es)", len(stale))
    return len(stale)


async def register(inbox, attached):
    """Record this process under its inbox now, and keep the record fresh while the loop runs.

    ``attached`` is a callable returning [(pairing id, address)] of the
    connections this process serves (``byoa.live``).
    """
    global _own, _remove_at_exit, _exit_handler
    await _beat_once(inbox, attached)
    if not _exit_handler:
        _exit_handler = True
        atexit.register(_leave)
    _own = (inbox, asyncio.get_running_loop().create_task(_beat_forever(inbox, attached), name="byoa-beat"))
    _remove_at_exit = True


async def _beat_once(inbox, attached):
    global _fresh
    try:
        _fresh = await database_sync_to_async(_beat)(inbox, attached())
        for gone in set(_suspected) - _fresh:  # swept, or about to be: nothing left to suspect
            del _suspected[gone]
    except Exception as exc:  # the database is away: the next beat tries again
        # Only the class: a database error's text may quote a row.
        logger.warning("BYOA could not renew this process's record (%s)", type(exc).__name__)


async def _beat_forever(inbox, attached):
    while True:
        await asyncio.sleep(byoa_setting("BEAT_SECONDS"))
        await _beat_once(inbox, attached)


async def is_fresh(inbox):
    """Return True when the process with this inbox beat recently enough to count as alive."""
    if _own is not None and inbox == _own[0]:  # this very process is alive
        return True
    if inbox in _fresh and inbox not in _suspected:
        return True
    # Not fresh at our last beat (it may have started since), or suspected: ask.
    beat_at = await ServerProcess.objects.filter(inbox=inbox, beat_at__gte=_cutoff()).values_list(
        "beat_at", flat=True
    ).afirst()
    if beat_at is None:
        return False
    if inbox in _suspected:
        seen = _suspected[inbox]
        if seen is None:
            _suspected[inbox] = beat_at
            return False
        if beat_at <= seen:
            return False
        del _suspected[inbox]  # it beat since: alive after all (the acknowledgement was lost)
    _fresh.add(inbox)
    return True


def suspect(inbox):
    """Take the process with this inbox for dead (a call to it went unacknowledged) until it beats again."""
    _fresh.discard(inbox)
    _suspected.setdefault(inbox, None)


def forget():
    """Stop renewing this process's record and leave it alone at exit (a test's database ends before the process does)."""
    global _own, _remove_at_exit
    _remove_at_exit = False
    if _own is not None:
        _own[1].cancel()
        _own = None
    _fresh.clear()
    _suspected.clear()


def _unregister(inbox):
    with transaction.atomic():
        _detach_process(inbox)
        ServerProcess.objects.filter(inbox=inbox).delete()


def _leave():
    """Remove this process's record and detach its pairings now, rather than when the record goes stale."""
    global _remove_at_exit
    if _own is None or not _remove_at_exit:
        return
    inbox, _remove_at_exit = _own[0], False
    try:
        close_old_connections()
        _unregister(inbox)
    except Exception as exc:  # the database may be gone before us: the others' sweep catches up
        logger.warning("BYOA could not remove this process's record at exit (%s)", type(exc).__name__)


class LeaveAtShutdown:
    """The ASGI lifespan, wrapped: at shutdown, remove this process's record and detach its pairings first."""

    def __init__(self, app=None):
        self.app = app  # the lifespan application this one wraps (e.g. the MCP server's), or None

    async def __call__(self, scope, receive, send):
        async def receive_and_leave():
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                await database_sync_to_async(_leave)()
            return message

        if self.app is not None:
            await self.app(scope, receive_and_leave, send)
            return
        while True:  # no other lifespan: answer it here
            message = await receive_and_leave()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
