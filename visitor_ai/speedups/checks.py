"""
The system checks of ``VISITOR_AI_SPEEDUPS``, registered by the ``visitor_ai`` and ``byoa`` apps::

    speedups.E001  VISITOR_AI_SPEEDUPS is not a dict, or names a speed-up that does not exist
    speedups.E002  a speed-up's options are not a dict, name an unknown option, or have a wrong value
    speedups.W001  a speed-up runs on versions it was not verified on: the plain path serves instead
    speedups.W002  a speed-up that became the plain path is still named: it does nothing
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core import checks

from visitor_ai.speedups import RETIRED, SPEEDUPS, unverified

__all__ = ["check_speedups"]


def check_speedups(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Check ``VISITOR_AI_SPEEDUPS``: known names, valid options, verified versions."""
    value = getattr(settings, "VISITOR_AI_SPEEDUPS", {})
    if not isinstance(value, Mapping):
        return [_unknown(f"VISITOR_AI_SPEEDUPS must be a dict of speed-up name -> options, not {value!r}.")]
    messages: list[checks.CheckMessage] = []
    for name, given in value.items():
        if name in RETIRED:
            messages.append(
                checks.Warning(
                    f"The speed-up {name!r} is no longer a switch: {RETIRED[name]}.",
                    hint="Remove it from VISITOR_AI_SPEEDUPS.",
                    id="speedups.W002",
                )
            )
            continue
        if name not in SPEEDUPS:
            messages.append(_unknown(f"VISITOR_AI_SPEEDUPS names no speed-up {name!r}."))
            continue
        messages.extend(_option_errors(name, given))
        versions = unverified(name)
        if versions:
            verified = ", ".join(
                f"{distribution} {' / '.join(found)}"
                for distribution, found in SPEEDUPS[name].verified.items()
            )
            messages.append(
                checks.Warning(
                    f"The speed-up {name!r} is off: it was verified on {verified}, "
                    f"and this site runs {', '.join(versions)}. The plain path serves instead.",
                    hint="Remove it from VISITOR_AI_SPEEDUPS to silence this, or run a verified version.",
                    id="speedups.W001",
                )
            )
    return messages


def _unknown(message: str) -> checks.Error:
    return checks.Error(message, hint=f"The speed-ups are: {', '.join(SPEEDUPS)}.", id="speedups.E001")


def _option_errors(name: str, given: object) -> list[checks.CheckMessage]:
    defaults = SPEEDUPS[name].defaults
    allowed = ", ".join(defaults) or "none"
    if not isinstance(given, Mapping):
        return [
            _option_error(
                f"VISITOR_AI_SPEEDUPS[{name!r}] must be a dict of options ({allowed}), not {given!r}."
            )
        ]
    problems = [
        f"{key!r} is not an option of {name!r} (its options: {allowed})"
        for key in given
        if key not in defaults
    ]
    seconds = given.get("SECONDS", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        problems.append(f"SECONDS must be a number of seconds, at least 0, not {seconds!r}")
    kept = given.get("KEPT", 0)
    if isinstance(kept, bool) or not isinstance(kept, int) or kept < 0:
        problems.append(f"KEPT must be a whole number, at least 0, not {kept!r}")
    if name == "redis_transport":
        problems.extend(_redis_problems(given.get("URL")))
    return [_option_error(f"VISITOR_AI_SPEEDUPS[{name!r}]: {problem}.") for problem in problems]


def _redis_problems(url: object) -> list[str]:
    """Return why the Redis transport could never connect with ``url`` (never the URL: it may hold a password)."""
    if not isinstance(url, str) or not url:
        return ["URL must name the Redis, e.g. 'redis://127.0.0.1:6379/0'"]
    scheme, separator, _rest = url.partition("://")
    if scheme not in ("redis", "rediss", "unix") or not separator:
        return ["URL must start with redis://, rediss:// or unix://"]
    try:
        import redis  # noqa: F401  (the "scale" extra's)
    except ImportError:
        return ["redis-py is not installed (pip install 'visitor-ai[scale]')"]
    return []


def _option_error(message: str) -> checks.Error:
    return checks.Error(
        message, hint="The docs' \"Turn on the speed-ups\" page lists each one's options.", id="speedups.E002"
    )
