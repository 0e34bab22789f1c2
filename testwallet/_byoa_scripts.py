"""
Where the BYOA extension stand-in's scripts are (``frontend/testwallet/byoa*.js``), and the
order in which a page loads them: what ``ByoaExtension.install`` adds to every document, and
what a suite without the driver adds itself.
"""

from pathlib import Path

from testwallet._driver import panel_path, stub_path


def script_path() -> Path:
    """Return the path of the stub, ``frontend/testwallet/byoa.js``; load :func:`script_paths` to run it."""
    return stub_path("byoa.js")


def rules_path() -> Path:
    """Return the path of the stub's manifest rules, ``frontend/testwallet/byoa-manifest.js``."""
    return stub_path("byoa-manifest.js")


def clip_path() -> Path:
    """Return the path of the stub's clip reading, ``frontend/testwallet/byoa-clip.js``."""
    return stub_path("byoa-clip.js")


def checks_path() -> Path:
    """Return the path of the stub's checks of a call, ``frontend/testwallet/byoa-checks.js``."""
    return stub_path("byoa-checks.js")


def consent_path() -> Path:
    """Return the path of what the stub's consent shows, ``frontend/testwallet/byoa-consent.js``."""
    return stub_path("byoa-consent.js")


def skills_path() -> Path:
    """Return the path of the skill table as the stub loads it, ``frontend/testwallet/byoa-skills.js``."""
    return stub_path("byoa-skills.js")


def script_paths() -> list[Path]:
    """Return the stub's scripts in the order a page loads them: the panel, clip reading, the skill table,
    manifest rules, what a consent shows, the checks of a call, the stub."""
    return [
        panel_path(),
        clip_path(),
        skills_path(),
        rules_path(),
        consent_path(),
        checks_path(),
        script_path(),
    ]
