"""
Each demo page in Chromium with DEBUG off, its static files from collectstatic
through WhiteNoise (the daphne_server fixture collects them, as production does):
within its budget, every script minified under a hashed name cached for a year,
the HTML compressed, and no file fetched twice under two names.

benchmarks/page_weight.py prints the same figures.
"""

import re
from collections import Counter

import pytest

from tests.pageweight import HASHED_NAME, measure, total

pytestmark = [pytest.mark.browser, pytest.mark.live]

PAGES = ("/bookshop/", "/geography/", "/twentyq/")
LIBRARY = tuple(f"/static/{folder}/" for folder in ("aiconnect", "byoa", "ways", "ui", "webmcp"))
# The bar (issue 54): what a demo page may send of our library and of all its scripts.
LIBRARY_BUDGET = 8 * 1024
SCRIPTS_BUDGET = 12 * 1024
YEAR = 365 * 24 * 3600


def plain_name(path):
    """Return a static path without its content hash: the file it is a version of."""
    return HASHED_NAME.sub(lambda found: "." + found[0].rsplit(".", 1)[1], path)


async def fresh_measure(browser, url, before=None):
    """Measure ``url`` in a new browser context (nothing cached); ``before(page)`` runs first."""
    context = await browser.new_context()
    try:
        page = await context.new_page()
        if before is not None:
            await before(page)
        return await measure(page, url)
    finally:
        await context.close()


@pytest.mark.parametrize("path", PAGES)
async def test_a_demo_page_loads_at_most_8_kb_of_the_library_and_12_kb_of_scripts_compressed(
    browser, daphne_server, path
):
    weight = await fresh_measure(browser, daphne_server.url + path)
    library = weight.files(kind="script", under=LIBRARY)
    scripts = weight.files(kind="script")
    assert library, "the page loaded none of the library"
    assert total(library) <= LIBRARY_BUDGET, [(item.path, item.body_bytes) for item in library]
    assert total(scripts) <= SCRIPTS_BUDGET, [(item.path, item.body_bytes) for item in scripts]


@pytest.mark.parametrize("path", PAGES)
async def test_every_script_of_a_demo_page_is_compressed_under_a_hashed_name_cached_for_a_year(
    browser, daphne_server, path
):
    weight = await fresh_measure(browser, daphne_server.url + path)
    scripts = weight.files(kind="script")
    for script in scripts:
        assert script.status == 200, script
        assert script.hashed, script
        assert script.max_age >= YEAR and "immutable" in script.cache_control, script
        # brotli: WhiteNoise's copy from collectstatic, never Django's DEBUG static view.
        assert script.encoding == "br", script
    (html,) = weight.files(kind="document")
    assert html.encoding == "gzip"


@pytest.mark.parametrize("path", PAGES)
async def test_a_demo_page_fetches_no_file_twice_under_two_names(browser, daphne_server, path):
    weight = await fresh_measure(browser, daphne_server.url + path)
    static = [item.path for item in weight.fetched if item.path.startswith("/static/")]
    assert static
    twice = {name: count for name, count in Counter(map(plain_name, static)).items() if count > 1}
    assert twice == {}, static


async def test_the_bookshop_page_sends_a_dozen_books_not_the_whole_catalog(browser, daphne_server):
    weight = await fresh_measure(browser, daphne_server.url + "/bookshop/")
    (html,) = weight.files(kind="document")
    assert html.body_bytes <= 8 * 1024


async def test_twentyq_loads_the_extension_ways_calls_only_in_a_browser_with_an_extension(
    browser, daphne_server, byoa_extension
):
    without = await fresh_measure(browser, daphne_server.url + "/twentyq/")
    with_extension = await fresh_measure(
        browser, daphne_server.url + "/twentyq/", before=byoa_extension.install
    )
    calls = re.compile(r"^/static/byoa/(extension|ratelimit)\.[0-9a-f]{12}\.js$")
    assert [item.path for item in without.fetched if calls.match(item.path)] == []
    lazily = sorted(plain_name(item.path) for item in with_extension.fetched if calls.match(item.path))
    assert lazily == ["/static/byoa/extension.js", "/static/byoa/ratelimit.js"]


@pytest.mark.parametrize("path", ["/geography/", "/twentyq/"])
async def test_a_byoa_page_does_not_load_the_recorder_or_the_ai_wallet_tools_until_used(
    browser, daphne_server, path
):
    weight = await fresh_measure(browser, daphne_server.url + path)
    loaded = {plain_name(item.path) for item in weight.fetched}
    assert not loaded & {
        "/static/byoa/recorder.js",
        "/static/byoa/wav.js",
        "/static/aiconnect/mcp.js",
        "/static/aiconnect/conversation.js",
    }


async def test_twentyq_loads_the_direct_links_flow_only_when_the_visitor_pairs_by_link(
    browser, daphne_server
):
    weight = await fresh_measure(browser, daphne_server.url + "/twentyq/")
    loaded = {plain_name(item.path) for item in weight.fetched}
    assert "/static/byoa/csrf.js" in loaded  # the game's own POSTs carry the token
    assert not loaded & {
        "/static/byoa/link.js",
        "/static/byoa/link-failure.js",
        "/static/ways/event-stream.js",
    }
