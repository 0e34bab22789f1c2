"""
The bookshop's tools through WebMCP: what the page library weighs, how soon the tools are there,
and what a call through the browser's agent costs beside the page's own call.

    .venv/bin/python benchmarks/webmcp_calls.py [--loads 10] [--calls 50]

1. ``frontend/webmcp/`` (what a page loads besides ``@aiconnect/core``), raw and compressed:
   gzip -9, and brotli (quality 11) through Node's zlib when ``node`` is on the PATH.
2. The bookshop under a real daphne (testwallet.server.DaphneServer, DEBUG off, its static files from
   collectstatic as in production) and Debian's Chromium with
   ``--enable-features=WebMCP``: for each of ``--loads`` fresh visitors, the time from navigation
   start, and from DOMContentLoaded, to the page saying its tools are registered (the status line
   browser-agent.js fills once ``exposeTools`` resolved).
3. ``search_books`` called ``--calls`` times each way, interleaved, on one page: through WebMCP
   (``document.modelContext.executeTool``, the agent's side in the page), through Playwright's
   ``page.webmcp.call_tool`` (adds the DevTools protocol hop a test pays), and with the page's own
   ``McpToolSource.callMcpTool``. Medians with [min-max], in milliseconds.
"""

import argparse
import asyncio
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ARGUMENTS = {"mood": "calm", "limit": 5}

# Record when browser-agent.js marks the status line: the tools are registered by then.
RECORD_REGISTERED = """
new MutationObserver((_, observer) => {
  const status = document.querySelector('#browser-agent[data-tools]');
  if (status) { window.__registeredAt = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-tools'] });
"""

TIME_EXECUTE = """async ([input, count]) => {
  const [tool] = (await document.modelContext.getTools()).filter((t) => t.name === 'search_books');
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    JSON.parse(await document.modelContext.executeTool(tool, input));
    times.push(performance.now() - start);
  }
  return times;
}"""

TIME_OWN_CALL = r"""async ([input, count]) => {
  // One source for the page's life, as the page keeps its own (browser-agent.js, assistant.js).
  if (!window.__ownSource) {
    // The module the page itself loaded (browser-agent.js imports it), under whatever name the
    // server gave it: hashed after collectstatic, where the plain name is not served at all.
    const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)
      .find((path) => /^\/static\/aiconnect\/index(\.[0-9a-f]{12})?\.js$/.test(path));
    if (!loaded) throw new Error('the page loaded no /static/aiconnect/index.js');
    const { McpToolSource } = await import(loaded);
    window.__ownSource = new McpToolSource('/api/mcp', 'benchmark');
    await window.__ownSource.listTools();
  }
  const source = window.__ownSource;
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await source.callMcpTool('search_books', input);
    times.push(performance.now() - start);
  }
  return times;
}"""


def library_sizes() -> dict[str, int | None]:
    """Return the bytes of frontend/webmcp/*.js: raw, gzip -9, brotli (None without node)."""
    source = b"".join(path.read_bytes() for path in sorted((ROOT / "frontend" / "webmcp").glob("*.js")))
    brotli = None
    if shutil.which("node"):
        script = (
            "const z=require('zlib');const d=require('fs').readFileSync(0);"
            "process.stdout.write(String(z.brotliCompressSync(d,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length))"
        )
        brotli = int(
            subprocess.run(["node", "-e", script], input=source, capture_output=True, check=True).stdout
        )
    return {"raw": len(source), "gzip -9": len(gzip.compress(source, compresslevel=9)), "brotli": brotli}


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.2f} ms [{min(values):.2f}-{max(values):.2f}]"


async def measure(url: str, loads: int, calls: int) -> None:
    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
    from testwallet.webmcp import WEBMCP_FLAG

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium_executable(), args=[*CHROMIUM_ARGS, WEBMCP_FLAG]
        )
        from_start, from_ready = [], []
        for _ in range(loads + 1):  # the first load warms the server and the browser's caches: left out
            context = await browser.new_context()
            page = await context.new_page()
            await page.add_init_script(RECORD_REGISTERED)
            await page.goto(url + "/bookshop/")
            await page.locator("#browser-agent[data-tools]").wait_for(timeout=10_000)
            registered, ready = await page.evaluate(
                "[window.__registeredAt, performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd]"
            )
            from_start.append(registered)
            from_ready.append(registered - ready)
            if _ < loads:
                await context.close()
        from_start, from_ready = from_start[1:], from_ready[1:]
        print(f"page load to tools registered ({loads} visitors, Chromium {browser.version}):")
        print(f"  from navigation start  {summary(from_start)}")
        print(f"  from DOMContentLoaded  {summary(from_ready)}")

        through_webmcp, through_playwright, own = [], [], []
        await page.evaluate(TIME_EXECUTE, [ARGUMENTS, 3])  # warm both paths
        await page.evaluate(TIME_OWN_CALL, [ARGUMENTS, 3])
        for _ in range(calls):
            through_webmcp += await page.evaluate(TIME_EXECUTE, [ARGUMENTS, 1])
            own += await page.evaluate(TIME_OWN_CALL, [ARGUMENTS, 1])
            start = asyncio.get_running_loop().time()
            await page.webmcp.call_tool("search_books", ARGUMENTS)
            through_playwright.append((asyncio.get_running_loop().time() - start) * 1000)
        print(f"search_books round trip ({calls} calls each, interleaved):")
        print(f"  WebMCP executeTool (in the page)     {summary(through_webmcp)}")
        print(f"  Playwright page.webmcp.call_tool     {summary(through_playwright)}")
        print(f"  the page's own McpToolSource call    {summary(own)}")
        print(
            f"  WebMCP / own: {statistics.median(through_webmcp) / statistics.median(own):.2f}x "
            f"(+{statistics.median(through_webmcp) - statistics.median(own):.2f} ms)"
        )
        await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--calls", type=int, default=50)
    options = parser.parse_args()

    sizes = library_sizes()
    print(
        "frontend/webmcp/ (three modules):",
        ", ".join(
            f"{name} {size} B" if size is not None else f"{name} n/a (no node)"
            for name, size in sizes.items()
        ),
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
    from testwallet.server import DaphneServer

    with tempfile.TemporaryDirectory(prefix="webmcp-bench-") as workdir:
        server = DaphneServer(
            "sites.config.asgi:application",
            # collectstatic: the page loads what a deployment serves (minified, hashed, compressed).
            setup_commands=[("migrate", "--noinput"), ("load_catalog",), ("collectstatic", "--noinput")],
            workdir=workdir,
        )
        with server:
            asyncio.run(measure(server.url, options.loads, options.calls))
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())} (2 cores shared)")


if __name__ == "__main__":
    main()
