"""
The home page's pictures of the demos are the suite's screenshots of their real pages: each
demo's first screen on a phone, in the light and the dark theme, made here in Chromium from the
page as production serves it. The README shows the same files.

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


def png_size(data: bytes) -> tuple[int, int]:
    """Return a PNG's (width, height) from its IHDR chunk."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    return struct.unpack(">II", data[16:24])


def committed(path: str) -> Path:
    """Return the file in the repository that a demo's static ``path`` is (`<label>/preview-*.png`)."""
    label = path.split("/", 1)[0]
    return ROOT / "sites" / label / "static" / path


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_each_demos_preview_is_the_suites_screenshot_of_its_first_screen_on_a_phone(
    browser, daphne_server, scheme
):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # A phone's width; tall enough that the demo's own first screen, under the site's header, is PREVIEW.
    viewport = {"width": PREVIEW["width"], "height": PREVIEW["height"] + 200}
    context = await browser.new_context(viewport=viewport, color_scheme=scheme, device_scale_factor=1)
    try:
        page = await context.new_page()
        for demo in installed_demos():
            await page.goto(daphne_server.url + demo["url"])
            await page.wait_for_load_state("networkidle")
            top = await page.evaluate("() => document.querySelector('main').getBoundingClientRect().top")
            clip = {"x": 0, "y": top, **PREVIEW}
            shot = await page.screenshot(type="png", clip=clip, animations="disabled", caret="hide")
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
