"""
The speed-ups: measured savings a site turns on knowingly, one switch each.

What a site gets by default is Django's and Channels' own machinery: Django's
``ASGIHandler`` and middleware, WhiteNoise's middleware, the channel layer
between processes, a database read where a value is needed. Each speed-up
here replaces one piece of that with a faster one of ours, and each is off
until the site names it in one setting::

    VISITOR_AI_SPEEDUPS = {
        "request_threads": {"KEPT": 16},  # keep request threads rather than start one per request
        "loop_middleware": {},            # Django's middleware hooks on the event loop
        "static_files": {},               # WhiteNoise's lookup on the event loop
        "pairing_cache": {"SECONDS": 10}, # a session's pairing, kept for a few seconds
        "redis_transport": {"URL": "redis://127.0.0.1:6379/0"},  # BYOA calls between processes on redis-py
    }

One more is an import path rather than a key: ``visitor_ai.speedups.daphne``'s
app config in place of ``"daphne"`` in ``INSTALLED_APPS``.

Four of them reach inside a library (Django's handler and middleware,
WhiteNoise's middleware, redis-py's connections). Each names the versions it was verified on
(``SPEEDUPS[name].verified``); on any other version it is not used, the plain
path serves instead, and the system check ``speedups.W001`` says so. What each
buys and costs: the docs' "Turn on the speed-ups" page, with the figures
``benchmarks/visitor_action.py`` and ``benchmarks/byoa_calls.py`` print.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from django.conf import settings

__all__ = ["RETIRED", "SPEEDUPS", "Speedup", "chosen", "options", "unverified", "unverified_versions"]


@dataclass(frozen=True)
class Speedup:
    """One speed-up: its switch's name, what it replaces, its options and where it was verified."""

    name: str
    #: What it replaces on the plain path, in a line.
    replaces: str
    #: Its options and their defaults (the keys a site may give).
    defaults: Mapping[str, object] = field(default_factory=dict)
    #: distribution -> the major.minor versions it was verified on; empty: it relies on no internals.
    verified: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


# Django's handler and middleware hooks as 5.2, 6.0 and 6.1 write them (`make matrix` runs each).
_DJANGO = ("5.2", "6.0", "6.1")

#: Every speed-up, by the key that turns it on in ``VISITOR_AI_SPEEDUPS``.
SPEEDUPS: dict[str, Speedup] = {
    speedup.name: speedup
    for speedup in (
        Speedup(
            "request_threads",
            "Django's ASGIHandler starting a thread for each request's sync work",
            {"KEPT": 16},
            {"Django": _DJANGO},
        ),
        Speedup(
            "loop_middleware",
            "Django's middleware hooks each run through sync_to_async under ASGI",
            verified={"Django": _DJANGO},
        ),
        Speedup(
            "static_files",
            "WhiteNoise's synchronous middleware (a thread hop for every request)",
            verified={"Django": _DJANGO, "WhiteNoise": ("6.12",)},
        ),
        Speedup("pairing_cache", "two queries a request to find the session's pairing", {"SECONDS": 10.0}),
        # Reads subscription messages as plain RESP2 replies on its own connections.
        Speedup(
            "redis_transport", "the channel layer between processes", {"URL": ""}, {"redis": ("8.1", "8.2")}
        ),
    )
}


#: Speed-ups that became the plain path, by name: what serves instead (a site's switch for one is a warning).
RETIRED: dict[str, str] = {
    "address_cache": 'another process\'s wallet address is kept by default now, for BYOA["ADDRESS_SECONDS"]',
    "gc_freeze": "the application freezes start-up's objects itself now, once per process (visitor_ai.collector)",
}


def chosen() -> Mapping[str, Mapping[str, Any]]:
    """Return ``settings.VISITOR_AI_SPEEDUPS``: what the site turned on (nothing by default)."""
    value = getattr(settings, "VISITOR_AI_SPEEDUPS", None)
    return value if isinstance(value, Mapping) else {}


def unverified(name: str) -> list[str]:
    """Return the installed versions the speed-up was not verified on (``["Django 6.2"]``), or []."""
    return unverified_versions(SPEEDUPS[name].verified)


def unverified_versions(verified: Mapping[str, tuple[str, ...]]) -> list[str]:
    """Return the installed versions of these distributions that are not among their verified major.minor."""
    found = []
    for distribution, versions in verified.items():
        try:
            installed = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            found.append(f"{distribution} (not installed)")
            continue
        if ".".join(installed.split(".")[:2]) not in versions:
            found.append(f"{metadata.metadata(distribution)['Name']} {installed}")
    return found


def options(name: str) -> dict[str, Any] | None:
    """Return the speed-up's options when the site chose it and it may run here, else None (the plain path)."""
    given = chosen().get(name)
    if not isinstance(given, Mapping) or unverified(name):
        return None  # not chosen, or chosen wrongly (speedups.E002), or unverified (speedups.W001)
    return {**SPEEDUPS[name].defaults, **given}
