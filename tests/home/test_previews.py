"""
The home page's pictures of the demos are the suite's screenshots of their real pages: each
demo on a phone as a visitor plays it (SHOWCASE), in the light and the dark theme, made here in
Chromium from the page as production serves it. The README shows the same files.

`VISITOR_AI_WRITE_PREVIEWS=1` writes them into each demo's static folder (commit them after
a change that moves a demo's first screen); every run writes them to test-artifacts/previews/.
"""

import os
import struct
from pathlib import Path

import pytest

from sites.home.demos import installed_demos

pytestmark = [pytest.mark.browser, pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "previews"
#: What the home page's <img> says it is (width and height in its template).
PREVIEW = {"width": 375, "height": 560}
WRITE = os.environ.get("VISITOR_AI_WRITE_PREVIEWS") == "1"


async def geography_in_play(page):
    """One round answered rightly: the verdict with the place's flag and globe, then the next question."""
    from tests.geography.conftest import right_answer

    await page.get_by_label("Your answer").fill(await right_answer(page))
    await page.get_by_role("button", name="Answer", exact=True).click()
    await page.locator("#reveal:not([hidden])").wait_for(timeout=5000)
    await page.wait_for_function(
        "() => document.querySelector('#reveal-map').complete && document.querySelector('#reveal-map').naturalWidth > 0"
    )
    return "#game"


async def twentyq_in_play(page):
    """A game where the site asks, two questions answered: the track and the things that still fit."""
    await page.locator("#ways[data-ready='true']").wait_for(state="attached", timeout=15000)
    await page.locator("#new-ai-asks").click()
    for turn in (1, 2):
        await page.locator("#answer-form:not([hidden])").wait_for(timeout=10000)
        await page.locator("#answer-yes").click()
        await page.locator(f"#history li:nth-child({turn})").wait_for(timeout=10000)
    await page.locator("#answer-form:not([hidden])").wait_for(timeout=10000)
    return "#game"


async def bookshop_as_it_opens(page):
    """The shop's first screen: its assistant, the suggestions, the shelves' search."""
    return "main"


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


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_each_demos_preview_is_the_suites_screenshot_of_it_in_play_on_a_phone(
    browser, daphne_server, scheme
):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    viewport = {"width": PREVIEW["width"], "height": 740}  # a phone's screen
    context = await browser.new_context(viewport=viewport, color_scheme=scheme, device_scale_factor=1)
    try:
        page = await context.new_page()
        for demo in installed_demos():
            await page.goto(daphne_server.url + demo["url"])
            await page.wait_for_load_state("networkidle")
            start = await SHOWCASE[demo["url"].strip("/")](page)
            await page.locator(start).evaluate("(element) => element.scrollIntoView()")
            top = await page.evaluate(
                "(start) => document.querySelector(start).getBoundingClientRect().top + scrollY - 8", start
            )
            clip = {"x": 0, "y": max(0, top), **PREVIEW}
            shot = await page.screenshot(
                type="png", clip=clip, full_page=True, animations="disabled", caret="hide"
            )
            assert png_size(shot) == (PREVIEW["width"], PREVIEW["height"])
            name = demo[f"preview_{scheme}"]
            (ARTIFACTS / name.replace("/", "-")).write_bytes(shot)
            if WRITE:
                committed(name).write_bytes(shot)
            assert committed(name).is_file(), (
                f"{name} is missing: run this test with VISITOR_AI_WRITE_PREVIEWS=1"
            )
            assert png_size(committed(name).read_bytes()) == png_size(shot), name
    finally:
        await context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_the_home_page_shows_each_demo_by_its_preview_in_the_visitors_theme(
    browser, daphne_server, scheme
):
    context = await browser.new_context(color_scheme=scheme)
    try:
        page = await context.new_page()
        await page.goto(daphne_server.url + "/")
        pictures = page.locator("ul.demos > li img")
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
