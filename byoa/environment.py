"""
Yes/no switches read from the environment (``DJANGO_DEBUG=1``, ``DJANGO_SERVE_STATIC=no``),
spelled one way for the demo settings and the headless wallet: ``env_flag``.
"""

import os

#: The values that turn a switch on, compared without case or surrounding spaces; anything else is off.
ON = frozenset({"1", "true", "yes", "on"})


def env_flag(name: str, default: bool = False) -> bool:
    """Return whether the environment variable ``name`` is on, or ``default`` when it is not set."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ON
