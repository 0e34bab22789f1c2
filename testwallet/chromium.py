"""Playwright launch settings for Debian's Chromium on a headless CI machine."""

import os
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # The CI network is closed: without these Chromium keeps trying Google's
    # hosts at every start.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_executable() -> str:
    """Return the Chromium to drive: $CHROMIUM, else Debian's /usr/bin/chromium."""
    return os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless, never a downloaded browser."""
    return {
        **browser_type_launch_args,
        "executable_path": chromium_executable(),
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }
