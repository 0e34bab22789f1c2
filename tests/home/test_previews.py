"""
The home page's pictures of the demos are the suite's screenshots of their real pages: each
demo on a phone as a visitor plays it (SHOWCASE), in the light and the dark theme, made here in
Chromium from the page as production serves it. The README shows the same files.

Each committed picture is held to a fresh screenshot of its page in the same state, pixel by
pixel, within a small tolerance for type rendering; the same run shows that the comparison tells
the pictures apart (each committed one is far from the other five fresh ones). Geography's
questions are random, so its preview plays a fixed first game (PREVIEW_GAME) by the seed cookie
a visitor's first game comes from.

`VISITOR_AI_WRITE_PREVIEWS=1` writes them into each demo's static folder (commit them after
a change that moves a demo's first screen); every run writes them to test-artifacts/previews/.
"""

import base64
import itertools
import os
import struct
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import override_settings

from sites.geography import game
from sites.geography.views import FIRST_GAME_COOKIE
from sites.home.demos import installed_demos

pytestmark = [pytest.mark.browser, pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "previews"
#: What the home page's <img> says it is (width and height in its template).
PREVIEW = {"width": 375, "height": 560}
WRITE = os.environ.get("VISITOR_AI_WRITE_PREVIEWS") == "1"
#: Geography's preview: its first two questions (the first answered, the second asked).
PREVIEW_GAME = ("capital:SN", "capital:MA")
#: A pixel differs when one of its channels moved by more than this (of 255): antialiasing moves less.
PIXEL_STEP = 48
#: A committed preview may differ from its fresh screenshot in this share of its pixels, at most.
#: Measured here: 0 in the same state; another country in geography's verdict (flag and name), 0.95%.
SAME = 0.003
#: And differs from every other fresh screenshot in at least this share (measured: another demo
#: 13% or more, the other theme 94% or more).
DIFFERENT = 0.05


def first_game_cookie(server) -> dict:
    """Return the cookie that makes geography's first game start with PREVIEW_GAME on ``server``.

    The server draws a browser's first game from the seed in a signed cookie, under its secret
    key (DJANGO_SECRET_KEY, else var/secret_key in its own directory, as settings.py reads them);
    with that key this process finds a seed whose game starts so, and signs it as the server would.
    """
    key = (
        server.environment().get("DJANGO_SECRET_KEY")
        or (Path(server.workdir) / "secret_key").read_text().strip()
    )
    with override_settings(SECRET_KEY=key):
        # 100 places: about one seed in 10,000 starts with the two; 10**6 misses them by 1e-43.
        for number in range(10**6):
            seed = f"preview-{number}"
            if tuple(game.first_game(seed)["questions"][:2]) == PREVIEW_GAME:
                break
        else:
            raise AssertionError(f"no seed under 10**6 starts a game with {PREVIEW_GAME}")
        response = HttpResponse()
        response.set_signed_cookie(FIRST_GAME_COOKIE, seed, salt=FIRST_GAME_COOKIE)
    return {"name": FIRST_GAME_COOKIE, "value": response.cookies[FIRST_GAME_COOKIE].value, "url": server.url}


async def geography_in_play(page):
    """One round answered rightly: the verdict with the place's flag and globe, then the next question
    with its own picture."""
    from tests.geography.conftest import right_answer

    # The page looks for an extension first (findByoa, 300 ms), and offers only the ways that work.
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await page.get_by_label("Your answer").fill(await right_answer(page))
    await page.get_by_role("button", name="Answer", exact=True).click()
    await page.locator("#reveal:not([hidden])").wait_for(timeout=15000)
    await page.locator("#track [data-state='right']").first.wait_for(timeout=15000)
    await page.wait_for_function(
        "() => ['#reveal-map', '#reveal-flag', '#clue'].every((id) => {"
        " const img = document.querySelector(id); return img.complete && img.naturalWidth > 0; })",
        timeout=15000,
    )
    return "#game"


async def twentyq_in_play(page):
    """A game where the site asks, two questions answered: the track and the things that still fit."""
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await page.locator("#new-ai-asks").click()
    for turn in (1, 2):
        await page.locator("#answer-form:not([hidden])").wait_for(timeout=15000)
        await page.locator("#answer-yes").click()
        await page.locator(f"#history li:nth-child({turn})").wait_for(timeout=15000)
    await page.locator("#answer-form:not([hidden])").wait_for(timeout=15000)
    return "#game"


async def bookshop_as_it_opens(page):
    """The shop's shelves as they open: the first books, their covers and prices."""
    # The offer's line is drawn once the client's detection has ended (no wallet: one compact line).
    await page.locator("#assistant-panel[data-wallet='noWallet']").wait_for(timeout=15000)
    await page.wait_for_function(
        "() => [...document.querySelectorAll('#catalog .cover')].slice(0, 4).every((img) => img.complete)",
        timeout=15000,
    )
    return "#catalog-heading"  # the shelves: the books are the shop's best moment


#: How each demo is shown: the state a visitor sees while playing, pictured from the element named.
SHOWCASE = {"bookshop": bookshop_as_it_opens, "geography": geography_in_play, "twentyq": twentyq_in_play}


def png_size(data: bytes) -> tuple[int, int]:
    """Return a PNG's (width, height) from its IHDR chunk."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    return struct.unpack(">II", data[16:24])


def committed(path: str) -> Path:
    """Return the file in the repository that a demo's static ``path`` is (`<label>/preview-*.png`)."""
    label = path.split("/", 1)[0]
    return ROOT / "sites" / label / "static" / path


async def screenshot(page, url, label) -> bytes:
    """Open a demo, bring it to its SHOWCASE state and return the preview's part of the page."""
    await page.goto(url)
    await page.wait_for_load_state("networkidle")
    start = await SHOWCASE[label](page)
    await page.locator(start).evaluate("(element) => element.scrollIntoView()")
    top = await page.evaluate(
        "(start) => document.querySelector(start).getBoundingClientRect().top + scrollY - 8", start
    )
    clip = {"x": 0, "y": max(0, top), **PREVIEW}
    return await page.screenshot(type="png", clip=clip, full_page=True, animations="disabled", caret="hide")


# Chromium decodes the PNGs and counts the pixels that differ (the venv has no image library,
# and the browser is at hand).
DIFFERING = """async ([a, b, step]) => {
  const pixels = async (data) => {
    const bitmap = await createImageBitmap(await (await fetch('data:image/png;base64,' + data)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  };
  const [one, two] = [await pixels(a), await pixels(b)];
  if (one.length !== two.length) return 1;
  let differing = 0;
  for (let i = 0; i < one.length; i += 4) {
    const moved = [0, 1, 2].map((channel) => Math.abs(one[i + channel] - two[i + channel]));
    if (Math.max(...moved) > step) differing += 1;
  }
  return differing / (one.length / 4);
}"""


async def test_each_demos_preview_is_the_suites_screenshot_of_it_in_play_on_a_phone(browser, daphne_server):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    labels = [demo["url"].strip("/") for demo in installed_demos()]
    fresh, kept = {}, {}
    for scheme in ("light", "dark"):
        viewport = {"width": PREVIEW["width"], "height": 740}  # a phone's screen
        context = await browser.new_context(viewport=viewport, color_scheme=scheme, device_scale_factor=1)
        try:
            await context.add_cookies([first_game_cookie(daphne_server)])
            page = await context.new_page()
            for demo, label in zip(installed_demos(), labels, strict=True):
                shot = await screenshot(page, daphne_server.url + demo["url"], label)
                assert png_size(shot) == (PREVIEW["width"], PREVIEW["height"])
                name = demo[f"preview_{scheme}"]
                (ARTIFACTS / name.replace("/", "-")).write_bytes(shot)
                if WRITE:
                    committed(name).write_bytes(shot)
                assert committed(name).is_file(), (
                    f"{name} is missing: run this test with VISITOR_AI_WRITE_PREVIEWS=1"
                )
                fresh[label, scheme] = base64.b64encode(shot).decode()
                kept[label, scheme] = base64.b64encode(committed(name).read_bytes()).decode()
        finally:
            await context.close()

    context = await browser.new_context()
    try:
        page = await context.new_page()
        differing = {
            (picture, shot): await page.evaluate(DIFFERING, [kept[picture], fresh[shot], PIXEL_STEP])
            for picture, shot in itertools.product(kept, fresh)
        }
    finally:
        await context.close()
    stale = {picture: differing[picture, picture] for picture in kept if differing[picture, picture] > SAME}
    assert stale == {}, (
        f"these previews are not their pages as they are now (share of pixels that differ; fresh ones in "
        f"{ARTIFACTS}): run this test with VISITOR_AI_WRITE_PREVIEWS=1 and commit them"
    )
    alike = {pair: share for pair, share in differing.items() if pair[0] != pair[1] and share < DIFFERENT}
    assert alike == {}, "the comparison does not tell these previews from other pages' screenshots"


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_the_home_page_shows_each_demo_by_its_preview_in_the_visitors_theme(
    browser, daphne_server, scheme
):
    context = await browser.new_context(color_scheme=scheme)
    try:
        page = await context.new_page()
        await page.goto(daphne_server.url + "/")
        pictures = page.locator("ul.demos > li .demo__picture img")
        await pictures.last.scroll_into_view_if_needed()
        shown = []
        for index in range(await pictures.count()):
            picture = pictures.nth(index)
            await page.wait_for_function(
                "(img) => img.complete && img.naturalWidth > 0", arg=await picture.element_handle()
            )
            shown.append(
                await picture.evaluate("(img) => [img.currentSrc, img.naturalWidth, img.naturalHeight]")
            )
        labels = [demo["url"].strip("/") for demo in installed_demos()]
        assert [(src.split("/static/")[1].split("/")[0], width, height) for src, width, height in shown] == [
            (label, PREVIEW["width"], PREVIEW["height"]) for label in labels
        ]
        assert all(f"preview-{scheme}." in src for src, _, _ in shown), shown
    finally:
        await context.close()
