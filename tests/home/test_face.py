"""
The demos' own face: Fraunces and four Fluent Emoji Flat pictures, committed as the npm packages'
files with their licences beside them (frontend/scripts/build-face.js), and every page's titles set
in Fraunces, fetched once as one compressed file under a hashed name cached for good.
"""

import subprocess
from pathlib import Path

import pytest

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
