"""
The server processes that hold wallet connections, as every process can see
them in the database: which of them are still alive.

A process registers its inbox (``byoa.transport``) when its hub starts
(``byoa.hub``), and renews the record every ``BYOA["BEAT_SECONDS"]``. A
connection's address names its process's inbox, so another process treats the
connection as live only while that process's record is fresh (``is_fresh``):
a process that died (SIGKILL, a crash, a lost machine) stops renewing, and
within ``BYOA["STALE_SECONDS"]`` its wallets count as away and calls to them
fail at once. Every beat also sweeps: it deletes the records of stale
processes and detaches their pairings, so the admin and ``/byoa/wait`` stop
showing them as connected. A process that stops normally removes its own
record and detaches its pairings at once (``ProcessRecords.leave``, run when
its hub closes: at the ASGI lifespan's shutdown under uvicorn and hypercorn,
at exit under daphne and runserver).

The seconds between a SIGKILL and the record going stale are covered by the
caller: a call sent to another process is acknowledged by that process's
inbox at once, and a caller that hears nothing within the acceptance window
of its deadline (``byoa.deadlines``) gives up and takes the process for dead
(``suspect``): later calls to any of its wallets fail at once, until its
record shows a beat newer than the one seen when it was suspected.

The beat survives database errors: it logs the error's class and tries again
at the next beat. Should this process's own record have been swept meanwhile
(its database was away longer than ``STALE_SECONDS``), the beat writes it
again and re-attaches the pairings its connections still serve.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.db import close_old_connections, transaction

from byoa import clock
from byoa.conf import byoa_setting
from byoa.models import Pairing, ServerProcess

__all__ = ["ProcessRecords", "is_beating", "sweep"]

logger = logging.getLogger(__name__)

#: Returns [(pairing id, address)] of the connections this process serves.
Attached = Callable[[], list[tuple[int, str]]]


def _cutoff() -> datetime:
    return clock.now() - timedelta(seconds=byoa_setting("STALE_SECONDS"))


def _detach_process(inbox: str) -> int:
    """Mark every pairing served through this inbox away; return how many."""
    # An address is "<inbox>#<key>" (byoa.transport), and "#" never occurs in an inbox.
    return Pairing.objects.filter(channel_name__startswith=f"{inbox}#").update(channel_name="")


def _beat(inbox: str, attached: list[tuple[int, str]]) -> set[str]:
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


def sweep() -> int:
    """Forget the processes that stopped beating and detach their pairings; return how many processes."""
    stale = list(ServerProcess.objects.filter(beat_at__lt=_cutoff()).values_list("inbox", flat=True))
    for inbox in stale:
        _unregister(inbox)
    if stale:
        logger.info("BYOA swept %d stopped server process(es)", len(stale))
    return len(stale)


def _unregister(inbox: str) -> None:
    """Forget the record of the process with this inbox and detach its pairings, in one transaction."""
    with transaction.atomic():
        _detach_process(inbox)
        ServerProcess.objects.filter(inbox=inbox).delete()


# inbox -> (loop time it was read, whether its process was beating): read at most once a beat.
_beating: dict[str, tuple[float, bool]] = {}


async def is_beating(inbox: str) -> bool:
    """Return True while the record of the process with this inbox is fresh (a caller's liveness watch).

    A caller whose call that process acknowledged asks this once a beat while it
    waits: a process that died after the acknowledgement stops beating, and
    within ``BYOA["STALE_SECONDS"]`` its callers give up instead of waiting out
    their deadlines. Answers are kept for a beat, so that many callers waiting
    on one process cost one query a beat.
    """
    loop = asyncio.get_running_loop()
    read_at, beating = _beating.get(inbox, (-1e9, True))
    if loop.time() - read_at < byoa_setting("BEAT_SECONDS"):
        return beating
    try:
        beating = await ServerProcess.objects.filter(inbox=inbox, beat_at__gte=_cutoff()).aexists()
    except Exception as exc:  # the database is away: say nothing new (the deadline still ends the call)
        logger.warning("BYOA could not read a process's record (%s)", type(exc).__name__)
        return beating
    if len(_beating) > 1024:  # processes come and go: forget what is old rather than grow
        _beating.clear()
    _beating[inbox] = (loop.time(), beating)
    return beating


class ProcessRecords:
    """This process's record (its beat) and what it knows of the others' (fresh, suspected)."""

    def __init__(self) -> None:
        # The inboxes of processes found fresh at this process's last beat: most calls
        # to a remote connection then cost no query beyond the pairing's own.
        self._fresh: set[str] = set()
        # inbox -> the beat_at of its record when a call to it went unacknowledged (None
        # until read): it counts as dead until its record shows a later beat. Compared
        # with the record's own value, so that the machines' clocks need not agree.
        self._suspected: dict[str, datetime | None] = {}
        self.inbox = ""  # this process's own, once registered
        self._beat_task: asyncio.Task[None] | None = None

    async def register(self, inbox: str, attached: Attached) -> None:
        """Record this process under its inbox now, and keep the record fresh while the loop runs."""
        await self.beat_once(inbox, attached)
        self.inbox = inbox
        loop = asyncio.get_running_loop()
        self._beat_task = loop.create_task(self._beat_forever(inbox, attached), name="byoa-beat")

    async def beat_once(self, inbox: str, attached: Attached) -> None:
        """Renew the record (and sweep); on a database error, log its class and leave it to the next beat."""
        try:
            self._fresh = await database_sync_to_async(_beat)(inbox, attached())
            for gone in set(self._suspected) - self._fresh:  # swept, or about to be: nothing left to suspect
                del self._suspected[gone]
        except Exception as exc:  # the database is away: the next beat tries again
            # Only the class: a database error's text may quote a row.
            logger.warning("BYOA could not renew this process's record (%s)", type(exc).__name__)

    async def _beat_forever(self, inbox: str, attached: Attached) -> None:
        while True:
            await asyncio.sleep(byoa_setting("BEAT_SECONDS"))
            await self.beat_once(inbox, attached)

    async def is_fresh(self, inbox: str) -> bool:
        """Return True when the process with this inbox beat recently enough to count as alive."""
        if inbox == self.inbox and self.inbox:  # this very process is alive
            return True
        if inbox in self._fresh and inbox not in self._suspected:
            return True
        # Not fresh at our last beat (it may have started since), or suspected: ask.
        beat_at = (
            await ServerProcess.objects.filter(inbox=inbox, beat_at__gte=_cutoff())
            .values_list("beat_at", flat=True)
            .afirst()
        )
        if beat_at is None:
            return False
        if inbox in self._suspected:
            seen = self._suspected[inbox]
            if seen is None:
                self._suspected[inbox] = beat_at
                return False
            if beat_at <= seen:
                return False
            del self._suspected[inbox]  # it beat since: alive after all (the acknowledgement was lost)
        self._fresh.add(inbox)
        return True

    def suspect(self, inbox: str) -> None:
        """Take the process with this inbox for dead (a call went unacknowledged) until it beats again."""
        self._fresh.discard(inbox)
        self._suspected.setdefault(inbox, None)

    def stop(self) -> asyncio.Task[None] | None:
        """Stop beating and forget what is known of the others; return the cancelled beat task, if any."""
        task, self._beat_task = self._beat_task, None
        if task is not None:
            task.cancel()
        self._fresh.clear()
        self._suspected.clear()
        return task

    def forget(self) -> None:
        """Leave this process's record to the others' sweep (a test's database ends before the process)."""
        self.inbox = ""

    def leave(self) -> None:
        """Remove this process's record and detach its pairings now, not when the record goes stale."""
        inbox, self.inbox = self.inbox, ""
        if not inbox:
            return
        try:
            close_old_connections()
            _unregister(inbox)
        except Exception as exc:  # the database may be gone before us: the others' sweep catches up
            logger.warning("BYOA could not remove this process's record at exit (%s)", type(exc).__name__)
