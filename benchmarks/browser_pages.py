"""
What a browser test's page costs Chromium, by how the test gets it, with the test wallet's flags.

    .venv/bin/python benchmarks/browser_pages.py [--loads 30] [--path /]

A browser test in this suite (and in a site's suite on the test wallet's plugin) opens a
new browser context and a page in it, then loads one of the site's pages. Measured here,
per load, in one run: the CPU seconds of Chromium's processes (the browser, its GPU and
network processes, and the renderers, counted through the zygote that reaps them), of
Playwright's node driver and of the server, for

- ``new context``: a new context and page for each load, as each test gets them;
- ``same context, new page``: one context for all loads, a new page for each;
- ``same page``: one page that loads the page again;

each with ``testwallet.chromium.CHROMIUM_ARGS`` as they are and without
``--renderer-process-limit=1``, to show what that flag buys. The server is the demo
project under daphne with DEBUG on, as the demos' tests serve it; the page is loaded until
its load event. Run it on a machine doing nothing else: every Chromium process on it counts.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._proc import cpu_seconds, tree  # noqa: E402  (after the path: run as a script)

RENDERER_LIMIT = "--renderer-process-limit=1"


def process_cpu(marker: bytes) -> float:
    """Return the CPU seconds of every process whose command line holds ``marker`` (reaped children included)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker not in (entry / "cmdline").read_bytes():
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone since the listing
        total += sum(int(field) for field in fields[11:15])
    return total / os.sysconf("SC_CLK_TCK")


async def measure(browser, url, way, loads, server_pids):
    """Return {part: CPU milliseconds per load} for ``loads`` loads of ``url`` got the ``way`` named."""
    kept = await browser.new_context()
    page = await kept.new_page()
    before = process_cpu(b"chromium"), process_cpu(b"run-driver"), cpu_seconds(server_pids)
    for _ in range(loads):
        if way == "new context":
            context = await browser.new_context()
            await (await context.new_page()).goto(url)
            await context.close()
        elif way == "same context, new page":
            fresh = await kept.new_page()
            await fresh.goto(url)
            await fresh.close()
        else:
            await page.goto(url)
    after = process_cpu(b"chromium"), process_cpu(b"run-driver"), cpu_seconds(server_pids)
    await kept.close()
    parts = ("chromium", "node driver", "server")
    return {part: 1000 * (end - start) / loads for part, start, end in zip(parts, before, after, strict=True)}


async def run(loads: int, path: str) -> None:
    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
    from testwallet.server import DaphneServer

    flag_sets = {
        "CHROMIUM_ARGS": list(CHROMIUM_ARGS),
        f"without {RENDERER_LIMIT}": [arg for arg in CHROMIUM_ARGS if arg != RENDERER_LIMIT],
    }
    with tempfile.TemporaryDirectory(prefix="browser-pages-") as workdir:
        server = DaphneServer(
            "sites.config.asgi:application",
            settings_module="sites.config.settings",
            setup_commands=[("migrate", "--noinput"), ("load_catalog",)],
            env={"DJANGO_DEBUG": "1"},
            workdir=workdir,
        )
        with server:
            server_pids = tree(server.process.pid)
            print(f"{loads} loads of {path} each (CPU ms per load; median of 3 rounds)")
            print(
                f"{'flags':38} {'how the test gets its page':24} {'chromium':>9} {'driver':>7} {'server':>7}"
            )
            async with async_playwright() as playwright:
                for label, args in flag_sets.items():
                    browser = await playwright.chromium.launch(
                        executable_path=chromium_executable(), args=args
                    )
                    for way in ("new context", "same context, new page", "same page"):
                        rounds = [
                            await measure(browser, server.url + path, way, loads, server_pids)
                            for _ in range(3)
                        ]
                        row = {part: statistics.median(r[part] for r in rounds) for part in rounds[0]}
                        print(
                            f"{label:38} {way:24} {row['chromium']:9.0f} {row['node driver']:7.0f} {row['server']:7.0f}"
                        )
                    await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--loads", type=int, default=30, help="loads per way and round (default 30)")
    parser.add_argument("--path", default="/", help="the page to load (default /, the home page)")
    arguments = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
    asyncio.run(run(arguments.loads, arguments.path))


if __name__ == "__main__":
    main()
