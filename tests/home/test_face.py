"""
The demos' own face: Fraunces and one set of Fluent Emoji Flat pictures, committed as the npm
packages' files with their licences beside them (frontend/scripts/build-face.js); every page's
titles set in Fraunces, fetched once as one compressed file under a hashed name cached for good;
each demo's own picture on its opening screen (and on the home page) and another on its end.
"""

import subprocess
from pathlib import Path

import pytest

from tests.home.games import finish_geography, finish_twentyq
from tests.pageweight import measure

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "sites" / "home" / "static" / "home" / "fonts"
YEAR = 365 * 24 * 3600
#: The one font file a page fetches (the Latin subset, one weight axis): 36 KB as committed.
FONT_BUDGET = 40 * 1024


def test_the_committed_typeface_and_pictures_are_the_packages_files_with_their_licences():
    done = subprocess.run(
        ["node", "scripts/build-face.js", "--check"],
        cwd=ROOT / "frontend",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "SIL Open Font License, Version 1.1" in (FONTS / "fraunces-OFL.txt").read_text()
    assert "MIT License" in (FONTS.parent / "art" / "LICENSE.txt").read_text()


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.parametrize("path", ["/", "/bookshop/", "/geography/", "/twentyq/"])
async def test_each_pages_title_is_in_the_sites_own_face_one_cached_file(browser, daphne_server, path):
    context = await browser.new_context()
    try:
        page = await context.new_page()
        weight = await measure(page, daphne_server.url + path)
        fonts = weight.files(kind="font")
        assert len(fonts) == 1, fonts
        (font,) = fonts
        assert font.path.startswith("/static/home/fonts/fraunces-latin-wght-normal.") and font.hashed, font
        assert font.max_age >= YEAR and font.body_bytes <= FONT_BUDGET, font
        family = await page.evaluate("() => getComputedStyle(document.querySelector('h1')).fontFamily")
        assert family.startswith('"Fraunces"') or family.startswith("Fraunces"), family
        assert await page.evaluate("() => document.fonts.check('650 1rem Fraunces')")
    finally:
        await context.close()


#: Each demo's pictures from the set (home/art/): on its opening screen, and on its end.
PICTURES = {
    "/bookshop/": ("books", "package"),
    "/geography/": ("globe", "trophy"),
    "/twentyq/": ("genie", "party-popper"),
}


async def art_shown(page) -> set[str]:
    """The set's pictures the page shows now, drawn, by name ("genie")."""
    sources = await page.evaluate(
        """() => [...document.querySelectorAll('img[src*="/static/home/art/"]')]
          .filter((img) => img.checkVisibility() && img.complete && img.naturalWidth > 0)
          .map((img) => img.getAttribute('src'))"""
    )
    return {source.rsplit("/", 1)[1].split(".", 1)[0] for source in sources}


async def play_to_the_end(page, path):
    """Play a demo to its end screen as a visitor with no AI does."""
    if path == "/geography/":
        await finish_geography(page)
    elif path == "/twentyq/":
        await finish_twentyq(page)
    else:
        await page.get_by_role("button", name="Add to basket").first.click()
        await page.get_by_role("link", name="Your basket (1)").wait_for(timeout=15000)
        await page.goto(page.url.split("/bookshop/")[0] + "/bookshop/basket/")
        await page.locator("#checkout").click()
        await page.locator(".message__art").wait_for(timeout=15000)
    await page.wait_for_load_state("networkidle")


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.parametrize("path", list(PICTURES))
async def test_each_demo_opens_and_ends_on_its_own_picture_of_the_set_cached_for_good(
    browser, daphne_server, path
):
    opening, end = PICTURES[path]
    context = await browser.new_context()
    try:
        page = await context.new_page()
        weight = await measure(page, daphne_server.url + path)
        assert opening in await art_shown(page)
        for art in weight.files(kind="image", under=("/static/home/art/",)):
            assert art.hashed and art.max_age >= YEAR and art.encoding in ("br", "gzip"), art
        await play_to_the_end(page, path)
        assert end in await art_shown(page)
        # The other demos' pictures are theirs: each demo's face is its own.
        others = {name for other, pair in PICTURES.items() if other != path for name in pair}
        assert not await art_shown(page) & others
    finally:
        await context.close()


@pytest.mark.browser
@pytest.mark.live
async def test_the_home_page_shows_each_demo_by_its_opening_picture(page, daphne_server):
    await page.goto(daphne_server.url + "/")
    await page.wait_for_load_state("networkidle")
    assert {opening for opening, _ in PICTURES.values()} <= await art_shown(page)
