"""
What each demo page sends over the wire in production, measured in Chromium.

    .venv/bin/python benchmarks/page_weight.py [--loads 5] [--server uvicorn|daphne]

The project runs as `DJANGO_DEBUG=0 make run` runs it (uvicorn, DEBUG off), after
`migrate`, `load_catalog` and `collectstatic` into the server's own directory, so
static files come from collectstatic's output as a deployment serves them.
Debian's Chromium opens each demo page --loads times, each in a new browser
context (nothing cached), and waits until the network is quiet (lazily loaded
modules included). Printed per page, from the first load: the bodies' bytes as
they crossed the wire (compressed when the server compressed them) and the file
count of our library's scripts (frontend/: aiconnect, byoa, ways, ui, webmcp),
of all scripts and of the HTML; then the first-load time (navigation start to
the load event) as the median and the slowest of the loads, on loopback; then
the scripts not under a content-hashed name with a year's cache, if any.
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pageweight import measure, total  # noqa: E402  (after the path: run as a script)

PAGES = ("/bookshop/", "/geography/", "/twentyq/")
LIBRARY = tuple(f"/static/{folder}/" for folder in ("aiconnect", "byoa", "ways", "ui", "webmcp"))
YEAR = 365 * 24 * 3600


def start_server(kind, workdir):
    """Start the project with DEBUG off on a free loopback port, static files collected."""
    from testwallet.server import DaphneServer, UvicornServer

    server_class = UvicornServer if kind == "uvicorn" else DaphneServer
    options = {"ws": "websockets-sansio"} if kind == "uvicorn" else {}
    return server_class(
        "sites.config.asgi:application",
        settings_module="sites.config.settings",
        setup_commands=[("migrate", "--noinput"), ("load_catalog",), ("collectstatic", "--noinput")],
        env={"DJANGO_DEBUG": "0"},
        workdir=workdir,
        **options,
    ).start()


def kb(size):
    return f"{size / 1024:.1f} KB"


async def run(args):
    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable

    with tempfile.TemporaryDirectory(prefix="page-weight-") as workdir:
        server = start_server(args.server, workdir)
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=chromium_executable(), args=CHROMIUM_ARGS
                )
                rows = []
                for path in PAGES:
                    weights = []
                    for _ in range(args.loads):
                        context = await browser.new_context()
                        page = await context.new_page()
                        weights.append(await measure(page, server.url + path))
                        await context.close()
                    rows.append((path, weights))
                await browser.close()
        finally:
            server.stop()

    print(
        f"Each demo page with DEBUG off under {args.server}, static files from collectstatic; Chromium, loopback."
    )
    print(
        f"Bytes over the wire (bodies, compressed as sent), file count; first load: median / max of {args.loads}."
    )
    print()
    header = f"{'page':<13} {'library scripts':>20} {'all scripts':>20} {'HTML':>10} {'first load':>18}"
    print(header)
    print("-" * len(header))
    problems = []
    for path, weights in rows:
        first = weights[0]
        library = first.files(kind="script", under=LIBRARY)
        scripts = first.files(kind="script")
        html = first.files(kind="document")
        times = [weight.load_ms for weight in weights]
        print(
            f"{path:<13} {kb(total(library)) + f' in {len(library)}':>20}"
            f" {kb(total(scripts)) + f' in {len(scripts)}':>20}"
            f" {kb(total(html)):>10} {f'{statistics.median(times):.0f} / {max(times):.0f} ms':>18}"
        )
        for script in scripts:
            if not script.hashed or script.max_age < YEAR:
                problems.append(f"{path}: {script.path} ({script.cache_control or 'no Cache-Control'})")
        for item in [*scripts, *html]:
            if not item.encoding and item.body_bytes > 1024:
                problems.append(f"{path}: {item.path} sent uncompressed")
    print()
    if problems:
        print(f"{len(problems)} not hashed with a year's cache, or not compressed, e.g.:")
        for problem in problems[:6]:
            print("  " + problem)
    else:
        print(
            "Every script is under a content-hashed name with a year's cache; scripts and HTML are compressed."
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="loads of each page, each in a new context")
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
