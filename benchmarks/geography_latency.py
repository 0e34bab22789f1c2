"""
The voice geography game: time from the end of a clip to the verdict on the
page, p50 over 50 answers, for each way a clip travels, with an instant wallet.

    .venv/bin/python benchmarks/geography_latency.py [--answers 50]

What it does, all on 127.0.0.1:

1. starts the project under a real daphne (testwallet.server.DaphneServer),
   with DEBUG on so that the direct link may name ws://127.0.0.1;
2. launches Debian's Chromium with a fake microphone playing speech made by
   espeak-ng, and opens /geography/;
3. extension: the test wallet's window.byoa (testwallet.extension) answers
   each audio.transcribe call at once; the page then POSTs the transcript to
   the server for the verdict;
4. link: a headless wallet (testwallet.direct.DirectWallet) pairs through the page's
   link and answers each call at once; the page POSTs the clip to the server,
   which calls the wallet and answers with the transcript and the verdict.

Each answer is a real recording of 1 to 2 s (Stop is pressed when the
countdown shows 14 s left). The interval is the page's own User Timing measure
``geography:clip-to-verdict``, from the moment the recorder hands over the clip
to the moment the verdict is on the page: WAV encoding, the wallet's call (or
the upload and the server's call), the server's judging and the DOM update.
A fresh page is opened every 25 answers to stay within the manifest's 40 calls
a minute, and a new game is started after every 10 answers.
"""

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")

PER_PAGE = 25
MEASURE = "geography:clip-to-verdict"


def questions():
    """Return {question text: English name of its answer} for every place and language."""
    import django

    django.setup()
    from sites.geography import names, places

    return {
        place.question(language): names.display_name(place.country, "en")
        for place in places.all_places().values()
        for language in names.LANGUAGES
    }


class Answers:
    """The right answer to the question the page shows, for an instant wallet to say."""

    def __init__(self):
        self.table = questions()
        self.now = ""

    async def read(self, page):
        self.now = self.table[(await page.locator("#question").text_content()).strip()]


async def click(page, selector):
    # Dispatched, not a mouse click: after a bringyourownagent:// link headless
    # Chromium drops mouse input to the tab (see tests/geography/test_voice_link.py).
    await page.locator(selector).dispatch_event("click")


async def answer_once(page, answers, done):
    """Record one clip, wait for its verdict; return the page's clip-to-verdict time in ms."""
    await answers.read(page)
    await click(page, "#speak")
    await page.locator("#clip-countdown", has_text="14 s left").wait_for(timeout=10000)
    await click(page, "#stop")
    await page.wait_for_function(
        "([name, done]) => performance.getEntriesByName(name).length > done",
        arg=[MEASURE, done],
        timeout=20000,
    )
    return await page.evaluate(
        "([name, done]) => performance.getEntriesByName(name)[done].duration", [MEASURE, done]
    )


async def play(page, answers, count):
    """Answer `count` clips on a page, starting a new game after every 10; return the times."""
    times = []
    for done in range(count):
        if done and done % 10 == 0:
            round_text = await page.locator("#question").text_content()
            await click(page, "#new-form button")
            await page.wait_for_function(
                "q => document.querySelector('#question').textContent !== q || "
                "document.querySelector('#round').textContent === '1'",
                arg=round_text,
            )
        times.append(await answer_once(page, answers, done))
    return times


async def extension_path(browser, url, total):
    from testwallet.extension import ByoaExtension

    answers, times = Answers(), []
    while len(times) < total:
        context = await browser.new_context()
        page = await context.new_page()
        wallet = ByoaExtension()
        await wallet.install(page)
        wallet.allow()
        wallet.answer_with("audio.transcribe", lambda call: {"text": answers.now})
        await page.goto(url + "/geography/")
        await click(page, "#voice")
        await page.locator('#mode[data-mode="extension"]').wait_for(timeout=10000)
        times += await play(page, answers, min(PER_PAGE, total - len(times)))
        await context.close()
    return times


async def link_path(browser, url, total):
    from testwallet.direct import DirectWallet, ScriptedBackend

    answers, times = Answers(), []
    while len(times) < total:
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(url + "/geography/")
        await click(page, "#wallet-link")
        link = page.locator("#open-wallet")
        await link.wait_for(timeout=10000)
        wallet = DirectWallet(
            ScriptedBackend({"audio.transcribe": lambda input, params: {"text": answers.now}}), dev_local=True
        )
        if not await wallet.open(await link.get_attribute("href")):
            raise RuntimeError(f"the headless wallet did not connect: {wallet.activity}")
        await page.locator("#link-state", has_text="Connected.").wait_for(timeout=10000)
        times += await play(page, answers, min(PER_PAGE, total - len(times)))
        await wallet.close()
        await context.close()
    return times


def speech_file(folder):
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        sys.exit("espeak-ng is not installed: run scripts/ensure-debian-packages (apt-get install espeak-ng)")
    path = Path(folder) / "speech.wav"
    subprocess.run([espeak, "-v", "en", "-w", str(path), ", ".join(["Peru"] * 40)], check=True, timeout=60)
    return path


def report(name, times):
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print(
        f"{name:<10} n={len(times):<3} p50={statistics.median(times):7.1f} ms   p90={p90:7.1f} ms   "
        f"min={ordered[0]:6.1f} ms   max={ordered[-1]:7.1f} ms"
    )


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--answers", type=int, default=50)
    options = parser.parse_args()

    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
    from testwallet.server import DaphneServer

    with tempfile.TemporaryDirectory() as scratch:
        args = [
            *CHROMIUM_ARGS,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-audio-capture={speech_file(scratch)}",
        ]
        (Path(scratch) / "daphne").mkdir()
        with DaphneServer(
            "sites.config.asgi:application",
            env={"DJANGO_DEBUG": "1", "DJANGO_LOG_LEVEL": "WARNING"},
            workdir=Path(scratch) / "daphne",
        ) as server:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=chromium_executable(), args=args)
                try:
                    print(
                        f"clip end -> verdict on the page, {options.answers} answers each, instant wallets, loopback"
                    )
                    report("extension", await extension_path(browser, server.url, options.answers))
                    report("link", await link_path(browser, server.url, options.answers))
                finally:
                    await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
