"""
Waiting for a server's state that a test can only ask about, not be told of.

Such a wait is bounded by the caller (``asyncio.timeout``) and ends on the state observed,
never on time passed; between two requests it pauses ``PAUSE_SECONDS``. Asked in a loop with
no pause, a server answered thousands of requests a second for the whole wait (a recheck, a
database restart, a server's 10 s close timeout), taking the CPU that the processes under test
and the other pytest workers needed on a 2-core machine. The pause is short against what is
awaited, so it adds at most this much to a wait. (ruff's ASYNC110 would have an event here:
the state is in another process, which signals nothing.)
"""

import asyncio
from collections.abc import Awaitable, Callable

PAUSE_SECONDS = 0.05


async def until[T](ask: Callable[[], Awaitable[T]], done: Callable[[T], bool]) -> T:
    """Ask until ``done(answer)``, pausing between asks; return that answer. Bound it with a timeout."""
    while True:
        answer = await ask()
        if done(answer):
            return answer
        await asyncio.sleep(PAUSE_SECONDS)
