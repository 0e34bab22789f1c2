"""
The one clock of ``byoa``: every expiry and rate window reads ``now()``.

Tests replace it (``monkeypatch.setattr("byoa.clock.now", ...)``) to move time
without sleeping.
"""

from datetime import UTC, datetime


def now() -> datetime:
    """Return the current time, timezone-aware."""
    # Not django.utils.timezone.now(): it reads settings.USE_TZ on every call,
    # and every server -> wallet call checks its grant's expiry. BYOA's times
    # are aware whatever USE_TZ says.
    return datetime.now(UTC)
