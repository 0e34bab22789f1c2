"""
Keep the server's calls to a visitor's wallet within the manifest's
``maxCallsPerMinute``. The wallet enforces the limit itself and answers
``ok: false`` beyond it, which the visitor would read as "no answer"; asking
fewer, and saying how long to wait, is kinder.
"""

import time

SESSION_KEY = "twentyq_calls"
WINDOW_SECONDS = 60


async def take(session, calls, per_minute, *, now=None):
    """Count ``calls`` for this session and return 0, or the seconds to wait (nothing counted)."""
    now = time.time() if now is None else now
    recent = [
        at
        for at in await session.aget(SESSION_KEY, [])
        if isinstance(at, (int, float)) and now - at < WINDOW_SECONDS
    ]
    if len(recent) + calls > per_minute:
        oldest = sorted(recent)[len(recent) + calls - per_minute - 1]
        return max(1, int(WINDOW_SECONDS - (now - oldest)) + 1)
    await session.aset(SESSION_KEY, recent + [now] * calls)
    return 0
