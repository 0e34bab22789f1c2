"""Playwright launch settings for Debian's Chromium on a headless CI machine.

Headless runs drive Debian's ``chromium-headless-shell`` when it is installed: the same
Chromium release as ``/usr/bin/chromium`` built as the content shell Playwright itself
uses for headless runs (its "chrome-headless-shell"). It has the same pages, WebSockets,
media streams (the fake microphone), WebMCP behind its flag and DevTools protocol, but none
of the full browser's per-tab machinery: on this project's suite it spent about a fifth of
the CPU per new page (0.04 s against 0.22 s in the browser process) and made the whole
session's Chromium cost fall from about 10 to about 4 CPU minutes. A headed run (``--headed``)
needs the full browser's window, so it gets ``/usr/bin/chromium``.
"""

import os
from pathlib import Path
from typing import Any

import pytest

__all__ = ["CHROMIUM_ARGS", "FULL_CHROMIUM", "HEADLESS_SHELL", "chromium_executable"]

#: Debian's full browser (package ``chromium``).
FULL_CHROMIUM = "/usr/bin/chromium"
#: Debian's headless shell (package ``chromium-headless-shell``), the same release without a window.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"

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
    # One renderer process for a context's pages. Each test opens a context of its own, and
    # without this Chromium spends more renderer CPU on each new context's first page
    # (benchmarks/browser_pages.py prints both, side by side).
    "--renderer-process-limit=1",
]


def chromium_executable(*, headless: bool = True) -> str:
    """Return the Chromium to drive: ``$CHROMIUM``, else Debian's headless shell for a
    headless run when it is installed, else Debian's full ``/usr/bin/chromium``."""
    chosen = os.environ.get("CHROMIUM")
    if chosen:
        return chosen
    if headless and Path(HEADLESS_SHELL).exists():
        return HEADLESS_SHELL
    return FULL_CHROMIUM


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless (its headless shell when installed), never a downloaded browser."""
    return {
        **browser_type_launch_args,
        "executable_path": chromium_executable(headless=browser_type_launch_args.get("headless", True)),
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }
