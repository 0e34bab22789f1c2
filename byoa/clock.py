"""
The one clock of ``byoa``: every expiry and rate window reads ``now()``.

Tests replace it (``monkeypatch.setattr("byoa.clock.now", ...)``) to move time
without sleeping.
"""

from django.utils import timezone


def now():
    """Return the current time, timezone-aware."""
    return timezone.now()
