"""
The Twenty Questions page in Chromium, measured for each way in, on loopback.

    .venv/bin/python benchmarks/twentyq_page.py [--turns 30] [--chunks 1000]

1. Answer -> next question, per way in. The project runs under a real daphne
   (testwallet.server.DaphneServer, the project's settings with DEBUG on, so
   that a link may point at ws://127.0.0.1). Debian's Chromium
   opens /twentyq/ with an instant model behind each way: the test wallets'
   AI Wallet and BYOA extension (answers from Python through their Playwright
   bindings), the built-in model stand-in (frontend/testwallet/languagemodel.js,
   same), a headless direct-link wallet (testwallet.direct.DirectWallet, in this
   process), and own mode (no model: the site's questioner). In "you think,
   the AI asks", each turn the page's own script clicks "Yes" and a
   MutationObserver notes when the next question is on the page; both times
   are the page's performance.now(), so Playwright's round trips are not in
   the figure. Printed per way: p50, p90 and max over --turns turns (new games
   are started as needed; a game has 20 turns).

   What a turn is, by way: AI Wallet / extension / built-in: POST /api/answer,
   POST /api/prompt, the model in the page, POST /api/reply. Direct link:
   POST /api/answer, then POST /api/stream (server -> wallet -> chunks -> SSE
   -> page) to its result. Own mode: POST /api/answer, POST /api/own.

2. Chunk -> page over the direct link, in the browser: the wallet streams
   --chunks one-character chunks for one move, at once and then 2 ms apart;
   for each chunk, the wall-clock time the wallet hands it to its socket
   (time.time() in this process) and the time the page's script has appended
   it to the page (performance.timeOrigin + performance.now() in a
   MutationObserver). Both read the machine's one real-time clock. The figure
   includes the wallet -> server WebSocket hop; benchmarks/twentyq_stream.py
   measures the relay to an HTTP client without the browser.
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testwallet.direct.backends import Backend  # noqa: E402  (after the path: run as a script)

WAYS = ("own", "aiwallet", "extension", "builtin", "link")

# Runs in the page: answer the pending move ("Yes" to a question, "Wrong" to a guess) and resolve
# with the ms until the next move (or the end) shows; null after 20 s (a move that never came).
MEASURE_TURN = """() => new Promise((resolve) => {
    const pending = document.querySelector('#pending');
    const before = pending.textContent;
    const game = document.querySelector('#game');
    const shown = (id) => !document.getElementById(id).hidden;
    const ready = () => game.dataset.status === 'over'
        || (pending.textContent !== before && pending.textContent !== ''
            && (shown('answer-form') || shown('verdict-form')) && document.querySelector('#stop').hidden);
    const start = performance.now();
    const observer = new MutationObserver(() => {
        if (!ready()) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve({ ms: performance.now() - start, over: game.dataset.status === 'over' });
    });
    const timer = setTimeout(() => { observer.disconnect(); resolve({ ms: null, over: true }); }, 20000);
    observer.observe(game, { subtree: true, childList: true, characterData: true, attributes: true });
    document.querySelector(shown('answer-form') ? '#answer-yes' : '#verdict-wrong').click();
})"""

# Runs in the page: note the wall-clock time at which the streamed text reaches each length.
WATCH_STREAM = """() => {
    window.__chunkTimes = [];
    const text = document.querySelector('#stream-text');
    new MutationObserver(() => {
        const now = performance.timeOrigin + performance.now();
        const length = text.textContent.length;
        while (window.__chunkTimes.length < length) window.__chunkTimes.push(now);
    }).observe(text, { subtree: true, childList: true, characterData: true });
}"""


def question_for(count):
    return f"QUESTION: Is it thing number {count}?"


class InstantBackend(Backend):
    """The direct-link wallet's model: a numbered question at once, or timed one-character chunks."""

    def __init__(self):
        self.count = 0
        self.chunks = 0
        self.pace = 0.0
        self.sent = []

    def skills(self):
        return {"text.generate"}

    def model_codes(self):
        return ["m1"]

    async def run(self, skill, input, params):
        self.count += 1
        return {"text": question_for(self.count)}

    async def stream(self, skill, input, params):
        if not self.chunks:
            self.count += 1
            yield question_for(self.count)
            return
        self.sent = []
        for _ in range(self.chunks):
            if self.pace:
                await asyncio.sleep(self.pace)
            self.sent.append(time.time() * 1000)
            yield "x"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def new_game(page):
    old = await page.locator("#game").get_attribute("data-game-id")
    await page.locator("#new-ai-asks").dispatch_event("click")
    selector = "#game[data-mode='ai-asks']" + (f":not([data-game-id='{old}'])" if old else "")
    await page.locator(selector).wait_for(timeout=20000)
    await page.wait_for_function(
        "() => !document.querySelector('#answer-form').hidden && document.querySelector('#stop').hidden",
        timeout=20000,
    )


def turn_time(result, way):
    """Return the ms of a measured turn, or raise when the next move never came."""
    if result["ms"] is None:
        raise RuntimeError(f"{way}: the next move did not show within 20 s")
    return result["ms"]


async def measure_way(browser, way, server, turns):
    """Return the ms from each answer to the next move on the page, through `way`."""
    counter = {"n": 0}
    times = []
    while len(times) < turns:
        # A fresh page for each game: the extension's per-minute window (30 calls, the manifest's
        # maxCallsPerMinute) lives in the page, and the figure is the turn, not that wait.
        times += await measure_game(browser, way, server, min(15, turns - len(times)), counter)
    return times


async def measure_game(browser, way, server, turns, counter):
    """Play one game of `turns` measured turns through `way` on a fresh page."""
    from testwallet.aiwallet import AiWalletStub
    from testwallet.direct import DirectWallet
    from testwallet.extension import ByoaExtension
    from testwallet.languagemodel import BuiltinModel

    def next_question(*_args):
        counter["n"] += 1
        return question_for(counter["n"])

    context = await browser.new_context()
    page = await context.new_page()
    wallet = stub = None
    if way == "aiwallet":
        stub = AiWalletStub()
        stub.model = next_question
        await stub.install(page)
    elif way == "extension":
        extension = ByoaExtension()
        extension.answer_with("text.generate", lambda call: {"text": next_question()})
        await extension.install(page)
    elif way == "builtin":
        model = BuiltinModel()
        model.answer_with(next_question)
        await model.install(page)
    await page.goto(server.url + "/twentyq/")
    # The ways are folded into the status line: "Change" opens them.
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=20000)
    if way != "own":
        await page.locator("#change-way").click()
    if way == "link":
        await page.locator("#ways button[data-way='link']").click()
        anchor = page.locator("#open-wallet:not([hidden])")
        await anchor.wait_for(timeout=20000)
        wallet = DirectWallet(InstantBackend(), dev_local=True)
        assert await wallet.open(await anchor.get_attribute("href")), wallet.activity
    elif way != "own":
        await page.locator(f"#ways button[data-way='{way}']").click()
    await page.locator(f"#way-status[data-way='{way}']").wait_for(timeout=20000)

    times = []
    await new_game(page)
    while len(times) < turns:
        result = await page.evaluate(MEASURE_TURN)
        if result["over"]:
            turn_time(result, way)
            await new_game(page)
            continue
        times.append(turn_time(result, way))
    assert await page.locator(f"#way-status[data-way='{way}']").count() == 1, f"{way} fell back to own mode"
    if wallet is not None:
        await wallet.close()
    if stub is not None:
        await stub.aclose()
    await context.close()
    return times


async def measure_chunks(browser, server, chunks, pace):
    """Return the ms from the wallet's send to the page's text, per chunk, for one streamed move."""
    from testwallet.direct import DirectWallet

    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(server.url + "/twentyq/")
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=20000)
    await page.locator("#change-way").click()
    await page.locator("#ways button[data-way='link']").click()
    anchor = page.locator("#open-wallet:not([hidden])")
    await anchor.wait_for(timeout=20000)
    backend = InstantBackend()
    wallet = DirectWallet(backend, dev_local=True)
    assert await wallet.open(await anchor.get_attribute("href")), wallet.activity
    await page.locator("#way-status[data-way='link']").wait_for(timeout=20000)
    backend.chunks, backend.pace = chunks, pace
    await page.evaluate(WATCH_STREAM)
    # The new game's first move streams `chunks` x's (not a move: the game refuses it at the end).
    await page.locator("#new-ai-asks").dispatch_event("click")
    await page.locator("#game-error:not([hidden]), #way-notice:not([hidden])").first.wait_for(timeout=60000)
    if await page.locator("#way-status[data-way='link']").count() == 0:
        raise RuntimeError("the streamed move failed: " + await page.locator("#way-notice").text_content())
    shown = await page.evaluate("() => window.__chunkTimes")
    await wallet.close()
    await context.close()
    # Not strict: chunks the page never showed are counted apart, as the second value.
    return [page_ms - sent_ms for sent_ms, page_ms in zip(backend.sent, shown, strict=False)], chunks - len(
        shown
    )


async def run(args):
    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
    from testwallet.server import DaphneServer

    server = DaphneServer(
        "sites.config.asgi:application",
        settings_module="sites.config.settings",
        env={"DJANGO_DEBUG": "1", "DJANGO_LOG_LEVEL": "WARNING"},
        workdir=tempfile.mkdtemp(prefix="twentyq-page-bench-"),
    )
    with server:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=chromium_executable(), args=CHROMIUM_ARGS
            )
            print(f"Answer -> next question on the page, {args.turns} turns per way (ms, the page's clock)")
            for way in WAYS:
                times = await measure_way(browser, way, server, args.turns)
                print(
                    f"  {way:<10} p50 {statistics.median(times):7.1f}   p90 {percentile(times, 0.9):7.1f}"
                    f"   max {max(times):7.1f}   (n={len(times)})"
                )
            print(f"Chunk -> page over the direct link, {args.chunks} one-character chunks (ms, wall clock)")
            for label, pace in (("at once", 0.0), ("2 ms apart", 0.002)):
                latencies, missing = await measure_chunks(browser, server, args.chunks, pace)
                print(
                    f"  {label:<10} p50 {statistics.median(latencies):7.1f}   p99 {percentile(latencies, 0.99):7.1f}"
                    f"   max {max(latencies):7.1f}   (n={len(latencies)}, not shown: {missing})"
                )
            await browser.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30, help="turns measured per way (default 30)")
    parser.add_argument("--chunks", type=int, default=1000, help="chunks in the streamed move (default 1000)")
    args = parser.parse_args()
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
    django.setup()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
